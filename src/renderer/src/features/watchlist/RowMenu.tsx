import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import './RowMenu.css';

/** One entry of a row menu: its words, whether it is off for now, and what it does. */
export interface RowMenuItem {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
}

/**
 * A row's actions behind one button (WAI-ARIA menu button): Enter, Space or ArrowDown opens the menu on its first
 * item, ArrowUp on its last; arrows, Home and End move; Enter or Space picks; Escape closes it and returns the focus
 * to the button, Tab closes it and moves on from the button; a click outside closes it. The menu is placed fixed
 * under the button (above it near the window's bottom) so the table's scroll box never clips it. `trigger` replaces
 * the button's "⋯" (the header's member menu shows the member's name), and `className` is added to the button's.
 */
export function RowMenu({
  label,
  items,
  trigger,
  className,
}: {
  label: string;
  items: readonly RowMenuItem[];
  trigger?: ReactNode;
  className?: string;
}) {
  const [open, setOpen] = useState<null | 'first' | 'last'>(null);
  const [at, setAt] = useState(0);
  const [place, setPlace] = useState<{ top: number; right: number } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const entries = useRef<(HTMLButtonElement | null)[]>([]);

  const close = (refocus: boolean) => {
    setOpen(null);
    setPlace(null);
    if (refocus) button.current?.focus();
  };

  useLayoutEffect(() => {
    if (!open || !button.current) return;
    const r = button.current.getBoundingClientRect();
    const h = menu.current?.offsetHeight ?? 0;
    const below = r.bottom + 2 + h <= window.innerHeight;
    setPlace({ top: below ? r.bottom + 2 : Math.max(4, r.top - 2 - h), right: window.innerWidth - r.right });
    const start = open === 'first' ? 0 : items.length - 1;
    setAt(start);
    entries.current[start]?.focus({ preventScroll: true });
  }, [open, items.length]);

  useEffect(() => {
    if (!open) return;
    const outside = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) close(false);
    };
    // The table scrolls under a fixed menu: close rather than float away from the row.
    const scrolled = (e: Event) => {
      if (!menu.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('mousedown', outside);
    window.addEventListener('scroll', scrolled, true);
    window.addEventListener('resize', scrolled);
    return () => {
      document.removeEventListener('mousedown', outside);
      window.removeEventListener('scroll', scrolled, true);
      window.removeEventListener('resize', scrolled);
    };
  }, [open]);

  const move = (to: number) => {
    const n = items.length;
    const next = ((to % n) + n) % n;
    setAt(next);
    entries.current[next]?.focus({ preventScroll: true });
  };

  const onMenuKey = (e: KeyboardEvent) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        move(at + 1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        move(at - 1);
        break;
      case 'Home':
        e.preventDefault();
        move(0);
        break;
      case 'End':
        e.preventDefault();
        move(items.length - 1);
        break;
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        close(true);
        break;
      case 'Tab':
        // Back on the button first, so Tab goes on from the row rather than from a menu that is gone.
        close(true);
        break;
    }
  };

  return (
    <>
      <button
        type="button"
        ref={button}
        className={className ? `lw-small wl-menu-button ${className}` : 'lw-small wl-menu-button'}
        aria-haspopup="menu"
        aria-expanded={open ? true : undefined}
        aria-label={label}
        title={label}
        onClick={() => (open ? close(false) : setOpen('first'))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(e.key === 'ArrowDown' ? 'first' : 'last');
          }
        }}
      >
        {trigger ?? <span aria-hidden="true">⋯</span>}
      </button>
      {open && (
        <div
          ref={menu}
          role="menu"
          aria-label={label}
          className="wl-menu"
          style={place ? { top: place.top, right: place.right } : { top: -9999, right: 0 }}
          onKeyDown={onMenuKey}
        >
          {items.map((it, i) => (
            <button
              key={it.label}
              type="button"
              role="menuitem"
              ref={(el) => {
                entries.current[i] = el;
              }}
              tabIndex={i === at ? 0 : -1}
              aria-disabled={it.disabled ? true : undefined}
              onClick={() => {
                if (it.disabled) return;
                close(true);
                it.onSelect();
              }}
            >
              {it.label}
            </button>
          ))}
        </div>
      )}
    </>
  );
}
