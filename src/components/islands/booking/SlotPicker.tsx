import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { cn } from '../../../lib/cn';
import type { Slot } from '../../../shared/booking-api';
import { dayKey, dayParts, groupByDay, longDay, timeOfDay } from './times';

interface SlotPickerProps {
  slots: Slot[];
  timeZone: string;
  /** The time chosen, by its start. */
  chosen?: string;
  onChoose: (slot: Slot) => void;
  /** Names the list of days for assistive technology. */
  label?: string;
}

/** The keys that move along the row of days, as in any row of tabs. */
const MOVES: Record<string, (index: number, last: number) => number> = {
  ArrowRight: (index, last) => Math.min(index + 1, last),
  ArrowLeft: (index) => Math.max(index - 1, 0),
  Home: () => 0,
  End: (_index, last) => last,
};

/**
 * The open times as a row of days (tabs: one stop for the keyboard, the arrows move along it)
 * and the chosen day's times as buttons reading like "9:30", the chosen one pressed. Only days
 * with a time are shown, in the zone the times are read in.
 */
export function SlotPicker({ slots, timeZone, chosen, onChoose, label = 'Days' }: SlotPickerProps) {
  const days = groupByDay(slots, timeZone);
  const [picked, setPicked] = useState<string>();
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  // The day picked, else the chosen time's (after a change of zone), else the first.
  const chosenDay = chosen ? dayKey(chosen, timeZone) : undefined;
  const current = days.find((day) => day.key === picked) ?? days.find((day) => day.key === chosenDay) ?? days[0];
  if (!current) return null;
  const currentIndex = days.indexOf(current);
  const dayName = longDay(current.start, timeZone);

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    const move = MOVES[event.key];
    if (!move) return;
    event.preventDefault();
    const next = days[move(currentIndex, days.length - 1)];
    if (!next) return;
    setPicked(next.key);
    tabs.current[days.indexOf(next)]?.focus();
  }

  const panelId = `${id}-times`;
  const tabId = (key: string) => `${id}-day-${key}`;
  return (
    <div className="grid min-w-0 grid-cols-1 gap-5">
      <div className="relative -mx-1">
        {/* A month of days scrolls sideways on a phone and wraps on a wider screen. */}
        <div
          role="tablist"
          aria-label={label}
          className="flex snap-x gap-2 overflow-x-auto scroll-smooth px-1 pt-1 pb-3 motion-reduce:scroll-auto sm:flex-wrap sm:overflow-visible sm:pb-1"
        >
          {days.map((day, index) => {
            const selected = day === current;
            const parts = dayParts(day.start, timeZone);
            return (
              <button
                key={day.key}
                ref={(element) => {
                  tabs.current[index] = element;
                }}
                id={tabId(day.key)}
                type="button"
                role="tab"
                aria-selected={selected}
                aria-controls={panelId}
                tabIndex={selected ? 0 : -1}
                onClick={() => setPicked(day.key)}
                onKeyDown={onKeyDown}
                className={cn(
                  'flex w-16 shrink-0 snap-start flex-col items-center rounded-2xl py-2.5 ring-1 ring-inset forced-colors:border',
                  'transition-[background-color,box-shadow,color] duration-150',
                  selected
                    ? 'bg-ink-900 text-white ring-ink-900 forced-colors:border-[Highlight]'
                    : 'bg-white text-ink-800 ring-ink-200 hover:bg-ink-50 hover:ring-ink-300',
                )}
              >
                <span className={cn('text-xs font-semibold uppercase', selected ? 'text-ink-200' : 'text-ink-600')}>
                  {parts.weekday}
                </span>{' '}
                <span className="text-xl leading-7 font-bold tabular-nums">{parts.day}</span>{' '}
                <span className={cn('text-xs', selected ? 'text-ink-200' : 'text-ink-600')}>{parts.month}</span>
              </button>
            );
          })}
        </div>
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={tabId(current.key)} className="grid gap-3">
        <h3 className="text-base font-semibold text-ink-900">{dayName}</h3>
        <div role="group" aria-label={`Times on ${dayName}`} className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {current.slots.map((slot) => {
            const pressed = slot.start === chosen;
            return (
              <button
                key={slot.start}
                type="button"
                aria-pressed={pressed}
                onClick={() => onChoose(slot)}
                className={cn(
                  'min-h-11 rounded-xl px-2 text-[0.95rem] font-semibold tabular-nums ring-1 ring-inset forced-colors:border',
                  'transition-[background-color,box-shadow,color] duration-150',
                  pressed
                    ? 'bg-brand-700 text-white ring-brand-700'
                    : 'bg-white text-brand-800 ring-brand-600/40 hover:bg-brand-50 hover:ring-brand-600',
                )}
              >
                {timeOfDay(slot.start, timeZone)}
              </button>
            );
          })}
        </div>
      </div>
    </div>
  );
}
