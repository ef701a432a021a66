/**
 * When something happened, in the local zone, as the line printers write it:
 * `14:03:07` today, `2025-01-15 14:03:07` on any other day (a decision log
 * read the morning after must not pass yesterday's lines off as today's).
 */

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Local wall-clock time of day, `14:03:07`. */
export function timeOfDay(ts: number): string {
  const d = new Date(ts);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}`;
}

/** Local date and time, `2025-01-15 14:03:07`. */
export function localDateTime(ts: number): string {
  const d = new Date(ts);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${timeOfDay(ts)}`;
}

/** A time column for lines read on the day `now` falls on: the time alone that day, with the date on any other. */
export function timeOrDateTime(now: number): (ts: number) => string {
  const today = new Date(now).toDateString();
  return (ts) => (new Date(ts).toDateString() === today ? timeOfDay(ts) : localDateTime(ts));
}
