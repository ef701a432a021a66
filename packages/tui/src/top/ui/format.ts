/** A rate as the header writes it, with one decimal below 10 and none above: `0.4`, `12`. Pure. */
export function formatRate(value: number): string {
  if (value === 0) return '0';
  return value < 10 ? value.toFixed(1) : String(Math.round(value));
}
