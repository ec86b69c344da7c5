/**
 * JSON built once, in JS: a floor writes each row's text from parts serialized once per dimension value
 * (names, `{id, name}` refs) and numbers, never row objects handed to JSON.stringify.
 */
export class Json {
  constructor(readonly text: string) {}
}

export const str = (s: string): string => JSON.stringify(s);

/** A number as JSON writes it (finite doubles; NaN and ±Infinity become null as in JSON.stringify). */
export const num = (x: number | null): string => (x === null || !Number.isFinite(x) ? 'null' : String(x));

/** `{"id":…,"name":…}` of a dimension value, or `null`. */
export const refJson = (id: string | null | undefined, name: string | null | undefined): string =>
  id === null || id === undefined
    ? 'null'
    : `{"id":${str(id)},"name":${name === null || name === undefined ? 'null' : str(name)}}`;

/** The v2 compared answer `{total, models, rows}` around rows already written as JSON. */
export const v2Page = (total: number, models: readonly string[], rows: readonly string[]): Json =>
  new Json(`{"total":${total},"models":${JSON.stringify(models)},"rows":[${rows.join(',')}]}`);

/** The tabular compared answer `{total, rows}` around rows already written as JSON. */
export const tabularPage = (total: number, rows: readonly string[]): Json =>
  new Json(`{"total":${total},"rows":[${rows.join(',')}]}`);
