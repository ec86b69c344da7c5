/** Figures as RESULTS.md shows them: ms with 2 decimals under 10, else 1; counts with separators; '–' when missing. */
export const f1 = (x: number | undefined) =>
  x === undefined || !Number.isFinite(x) ? '–' : x < 10 ? x.toFixed(2) : x.toFixed(1);
export const int = (x: number | null | undefined) =>
  x === null || x === undefined || !Number.isFinite(x) ? '–' : Math.round(x).toLocaleString('en-US');
