import { useEffect, useState } from 'react';

/** The element marked `data-tour="<name>"`, if it is in the page. */
export function findTourTarget(name: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-tour="${name}"]`);
}

export interface FoundTarget {
  element: HTMLElement;
  /** which of the step's targets it is: 0 is the step's own screen */
  rank: number;
}

/**
 * Looks for a step's targets every `pollMs` (spec §4: each step polls for its target element
 * until it exists) and keeps looking while the step lasts, so the popover follows when the
 * screen changes: the best target in the page wins.
 */
export function useTourTarget(targets: string[], pollMs: number, active: boolean): FoundTarget | null {
  const [found, setFound] = useState<FoundTarget | null>(null);
  const key = targets.join(' ');
  useEffect(() => {
    if (!active || !key) {
      setFound(null);
      return;
    }
    const names = key.split(' ');
    const look = () => {
      let next: FoundTarget | null = null;
      for (let rank = 0; rank < names.length && !next; rank++) {
        const element = findTourTarget(names[rank]!);
        if (element) next = { element, rank };
      }
      setFound((prev) => (prev?.element === next?.element && prev?.rank === next?.rank ? prev : next));
    };
    look();
    const timer = setInterval(look, pollMs);
    return () => clearInterval(timer);
  }, [key, pollMs, active]);
  return found;
}

/** Whether an element marked `data-tour="<name>"` is in the page, checked every `pollMs`. */
export function useTourPresence(name: string | null, pollMs: number): boolean {
  const [present, setPresent] = useState(false);
  useEffect(() => {
    if (!name) {
      setPresent(false);
      return;
    }
    const look = () => setPresent(findTourTarget(name) !== null);
    look();
    const timer = setInterval(look, pollMs);
    return () => clearInterval(timer);
  }, [name, pollMs]);
  return present;
}
