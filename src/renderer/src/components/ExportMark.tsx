import type { ExportBlock } from '../../../shared/exportBlock';
import './watch/common.css';

/**
 * The mark of a lot whose title blocks export or registration (src/shared/exportBlock.ts exportBlock, decided in
 * core): a badge in words ("Certificate of destruction", "Not exportable"), never colour alone, whose tooltip says
 * why; screen readers hear the sentence too. Nothing when `block` is null. Shown wherever a lot appears: search
 * results, the lot page, the watchlist, the library, the alerts inbox and the plan.
 */
export function ExportMark({
  block,
  className,
}: {
  block: ExportBlock | null | undefined;
  className?: string;
}) {
  if (!block) return null;
  return (
    <span
      className={`lw-badge danger lw-export-mark${className ? ` ${className}` : ''}`}
      title={block.text}
      data-reason={block.reason}
    >
      <span aria-hidden="true">⚠ </span>
      {block.label}
      <span className="lw-export-why">. {block.text}</span>
    </span>
  );
}
