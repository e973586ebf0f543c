/** Summary statistics over per-page results. Linear interpolation between ranks, as most tools do. */
export function quantile(values: number[], q: number): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}

export const median = (values: number[]) => quantile(values, 0.5);

export function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export function present<T>(values: Array<T | null | undefined>): T[] {
  return values.filter((v): v is T => v !== null && v !== undefined);
}
