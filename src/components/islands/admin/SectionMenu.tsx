import { useEffect, useRef, useState } from 'react';
import { cn } from '../../../lib/cn';

export interface SectionLink {
  /** The section's id, and its address's fragment (`#leads`). */
  id: string;
  label: string;
}

/**
 * The dashboard's sections as links in the admin page's bar, the one being read marked: in a row
 * on a wide screen; below that, a button naming the current section that opens the list over
 * the page (with the link to the site, on a phone), so it never pushes the sections down. Plain
 * links to `#id`, so the address, a reload and the back button follow them.
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
    <nav ref={nav} aria-label="Sections" className="order-1 min-w-0 xl:flex-1">
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls="section-links"
        onClick={() => setOpen(!open)}
        className="flex min-h-10 max-w-full items-center gap-1.5 rounded-lg px-3 text-left text-sm ring-1 ring-ink-200 ring-inset xl:hidden"
      >
        <span className="min-w-0 truncate">
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
          'gap-0.5 xl:static xl:flex xl:max-h-none xl:flex-wrap xl:bg-transparent xl:p-0 xl:shadow-none xl:ring-0',
          open
            ? 'absolute inset-x-2 top-full mt-1 grid max-h-[calc(100svh-5rem)] grid-cols-2 overflow-y-auto rounded-(--radius-card) bg-white p-2 shadow-(--shadow-card) ring-1 ring-ink-100 sm:inset-x-6 sm:grid-cols-3'
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
                'flex min-h-11 items-center rounded-lg px-3 text-sm font-medium xl:min-h-9 xl:px-2.5',
                id === current ? 'bg-brand-50 font-semibold text-brand-800' : 'text-ink-700 hover:bg-ink-100',
              )}
            >
              {label}
            </a>
          </li>
        ))}
        {/* The bar has no room for it on a phone. */}
        <li className="col-span-full border-t border-ink-100 pt-1 sm:hidden">
          <a href="/" className="flex min-h-11 items-center rounded-lg px-3 text-sm font-medium text-ink-700">
            View site
          </a>
        </li>
      </ul>
    </nav>
  );
}
