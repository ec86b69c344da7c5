/**
 * Where every CLI command keeps the state store of a dataset when `--state` is not given: the sibling
 * file `<data dir>.state.duckdb` (data/sample → data/sample.state.duckdb), outside the dataset folder
 * so the dataset stays read-only and replaceable.
 */
export function defaultStatePath(dataDir: string): string {
  const trimmed = dataDir.replace(/[\\/]+$/, '');
  return `${trimmed === '' ? dataDir : trimmed}.state.duckdb`;
}
