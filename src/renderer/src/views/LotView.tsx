import { PlaceholderView } from './PlaceholderView';

/** One lot: photos, fields, timeline, sale history, related lots, shipping, watch. */
export function LotView({ lotKey }: { lotKey: string }) {
  return <PlaceholderView title={lotKey} text="Lot detail." />;
}
