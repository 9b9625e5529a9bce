import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';

/** The section the address names (`/admin/insights#leads`), if it is one of `ids`. */
function sectionInAddress(ids: readonly string[]): string | undefined {
  const id = decodeURIComponent(window.location.hash.slice(1));
  return ids.includes(id) ? id : undefined;
}

/** What a person does to move the page themselves. */
const OWN_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * The dashboard's sections as addresses: returns the section being read, for the menu to mark.
 *
 * The section the address names (`#leads`, on opening the page, following a menu link or going
 * back) is the current one until the person moves the page themselves; then it is the first
 * section crossing a band across the upper half of the screen, below the site's header and the
 * phone's menu bar. A section too near the end of the page to reach the band is still marked
 * when its link is followed.
 *
 * On opening the page the browser looks for the fragment before the dashboard exists, and finds
 * nothing; and the sections above it grow as their answers come in. So the named section is
 * scrolled to once the dashboard is on screen, and again whenever its queries have all answered,
 * until the person moves the page.
 */
export function useSections(ids: readonly string[]): string | undefined {
  const [current, setCurrent] = useState<string | undefined>(() => sectionInAddress(ids) ?? ids[0]);
  /** The section the address named last, while the person has not moved the page since. */
  const named = useRef(sectionInAddress(ids));
  const fetching = useIsFetching();

  useEffect(() => {
    const crossing = new Set<string>();
    const showCrossing = () => {
      const first = ids.find((id) => crossing.has(id));
      if (first && !named.current) setCurrent(first);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) crossing.add(entry.target.id);
          else crossing.delete(entry.target.id);
        }
        showCrossing();
      },
      { rootMargin: '-140px 0px -50% 0px' },
    );
    for (const id of ids) {
      const section = document.getElementById(id);
      if (section) observer.observe(section);
    }
    const followAddress = () => {
      named.current = sectionInAddress(ids);
      if (named.current) setCurrent(named.current);
    };
    const ownMove = () => {
      named.current = undefined;
    };
    window.addEventListener('hashchange', followAddress);
    for (const move of OWN_MOVES) window.addEventListener(move, ownMove, { passive: true });
    return () => {
      observer.disconnect();
      window.removeEventListener('hashchange', followAddress);
      for (const move of OWN_MOVES) window.removeEventListener(move, ownMove);
    };
  }, [ids]);

  useEffect(() => {
    if (named.current && fetching === 0) document.getElementById(named.current)?.scrollIntoView();
  }, [fetching]);

  return current;
}
