import { useId, useMemo, useState } from 'react';
import { browserTimeZone, timeZoneChoices, zoneLabel, zoneName } from './times';

/**
 * The zone the times are written in, named ("Times in Eastern Time (America/New_York)"), and a
 * Change button that opens a list of every zone, the person's own and the owner's first.
 */
export function TimeZonePicker({
  timeZone,
  ownerTimeZone,
  onChange,
}: {
  timeZone: string;
  ownerTimeZone: string;
  onChange: (timeZone: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const selectId = useId();
  const own = useMemo(() => browserTimeZone(), []);
  const choices = useMemo(() => timeZoneChoices([own, ownerTimeZone]), [own, ownerTimeZone]);
  const suggested = choices.slice(0, own === ownerTimeZone ? 1 : 2);
  const name = zoneName(timeZone);

  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <p className="text-sm text-ink-700">
          Times in{' '}
          {name ? (
            <>
              <strong className="font-semibold text-ink-900">{name}</strong> ({timeZone})
            </>
          ) : (
            <strong className="font-semibold text-ink-900">{timeZone}</strong>
          )}
        </p>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={selectId}
          onClick={() => setOpen(!open)}
          className="-mx-1 min-h-9 rounded-full px-1 text-sm font-semibold text-brand-700 underline underline-offset-2 hover:text-brand-800"
        >
          {open ? 'Done' : 'Change time zone'}
        </button>
      </div>
      <div id={selectId} hidden={!open} className="grid gap-1.5">
        <label htmlFor={`${selectId}-select`} className="text-sm font-semibold text-ink-800">
          Time zone
        </label>
        <select
          id={`${selectId}-select`}
          value={timeZone}
          onChange={(event) => onChange(event.target.value)}
          className="h-11 w-full rounded-xl bg-white px-3 text-base text-ink-900 ring-1 ring-ink-200 ring-inset forced-colors:border"
        >
          <optgroup label="Suggested">
            {suggested.map((zone) => (
              <option key={zone} value={zone}>
                {zoneLabel(zone)}
                {zone === own ? ', this device' : ''}
                {zone === ownerTimeZone ? ', ours' : ''}
              </option>
            ))}
          </optgroup>
          <optgroup label="All time zones">
            {choices.slice(suggested.length).map((zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll('_', ' ')}
              </option>
            ))}
          </optgroup>
        </select>
      </div>
    </div>
  );
}
