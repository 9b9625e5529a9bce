import { useEffect, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';

export interface SectionLink {
  /** The section's id, and its address's fragment (`#leads`). */
  id: string;
  label: string;
}

/**
 * The dashboard's sections as links, the one being read marked: a list beside them on a wide
 * screen, staying in view; on a phone, a bar under the site's header with a button that opens
 * the list. Plain links to `#id`, so the address, a reload and the back button follow them.
 */
export function SectionMenu({ sections, current }: { sections: readonly SectionLink[]; current?: string }) {
  const [open, setOpen] = useState(false);
  const nav = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  // An open list closes with Escape (the focus back on its button) or a press anywhere else.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPress = (event: PointerEvent) => {
      if (event.target instanceof Node && !nav.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPress);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPress);
    };
  }, [open]);

  const currentLabel = sections.find((section) => section.id === current)?.label;
  return (
    <nav
      ref={nav}
      aria-label="Sections"
      className="sticky top-16 z-30 -mx-4 border-b border-ink-100 bg-ink-50/95 px-4 py-2 backdrop-blur-md sm:-mx-6 sm:px-6 lg:top-24 lg:mx-0 lg:self-start lg:border-0 lg:bg-transparent lg:p-0 lg:backdrop-blur-none"
    >
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls="section-links"
        onClick={() => setOpen(!open)}
        className="flex min-h-11 w-full items-center justify-between gap-3 rounded-lg bg-white px-4 text-left text-sm ring-1 ring-ink-200 ring-inset lg:hidden"
      >
        <span className="min-w-0">
          <span className="font-semibold">Sections</span>
          {currentLabel && <span className="text-ink-600"> · {currentLabel}</span>}
        </span>
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className={cn('size-5 shrink-0 text-ink-600 transition-transform', open && 'rotate-180')}
        >
          <path
            fill="currentColor"
            d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4Z"
          />
        </svg>
      </button>
      <ul
        id="section-links"
        className={cn(
          'gap-0.5 lg:static lg:grid lg:max-h-none lg:grid-cols-1 lg:bg-transparent lg:p-0 lg:shadow-none lg:ring-0',
          open
            ? 'absolute inset-x-4 top-full mt-1 grid max-h-[calc(100svh-9rem)] grid-cols-2 overflow-y-auto rounded-(--radius-card) bg-white p-2 shadow-(--shadow-card) ring-1 ring-ink-100 sm:inset-x-6'
            : 'hidden',
        )}
      >
        {sections.map(({ id, label }) => (
          <li key={id}>
            <a
              href={`#${id}`}
              aria-current={id === current ? 'true' : undefined}
              onClick={() => setOpen(false)}
              className={cn(
                'flex min-h-11 items-center rounded-lg px-3 text-sm font-medium lg:min-h-9',
                id === current ? 'bg-brand-50 font-semibold text-brand-800' : 'text-ink-700 hover:bg-ink-100',
              )}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
