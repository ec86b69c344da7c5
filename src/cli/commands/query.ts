import { readFile } from 'node:fs/promises';
import { openEngine } from '../../open-engine.ts';
import { dataUnavailable } from '../../engine/database-errors.ts';
import { DatasetError, EngineError, InternalError, ValidationError } from '../../errors.ts';
import { encodeRows } from '../../formats/encode.ts';
import { formatNames, formats, isFormatName, type FormatName } from '../../formats/format-names.ts';
import { boxTable } from '../../formats/box-table.ts';
import { formatSseEvent } from '../../formats/sse-text.ts';
import { defaultStatePath } from '../../state/default-path.ts';
import { parse, required, UsageError } from '../args.ts';
import { countingRows, exportProgress, openOutput } from '../export-output.ts';
import type { CliIo } from '../io.ts';
import type { Command } from './command.ts';
import { backendOf, backendParse, backendUsage } from '../backend-option.ts';
import { tempLimits } from '../temp-limits.ts';

export const query: Command = {
  usage: `aea query PATH --data DIR --org ORG_ID [--method M] [--body JSON | --body-file F] [--state FILE]
          [--format json|ndjson|csv|parquet|arrow|table] [--out FILE] [--csv-raw] [--export-temp-limit SIZE] [--explain] [--fill zero] [--compare WINDOW] [--components]
          [--backend duckdb|chdb|clickhouse [--clickhouse-url URL]]

  PATH           an API path, e.g. /v2/reports/visibility; GET paths may carry a query string
  --method M     HTTP method (default POST when a body is given, else GET)
  --body JSON    the request body; --body-file F reads it from a file ("-" for stdin)
  --state FILE   the state store (prompt edits, agents, runs); default <DIR>.state.duckdb beside the dataset.
                 When another process (aea serve) holds it, the query reads a snapshot of it and
                 refuses changes (503, nothing written)
  --format F     json (default): the JSON body, or the raw text/event-stream text for /stream paths;
                 ndjson, csv, parquet, arrow (IPC stream): a report's rows (page or stream) as a table;
                 table: the rows drawn as an aligned table for reading at a terminal (at most 1,000
                 rows drawn, the rest counted). PATH?format=F says the same as --format F
  --out FILE     write there instead of standard output (removed again if the export fails); parquet
                 and arrow go to standard output only when it is a pipe or a file, not a terminal
  --export-temp-limit SIZE
                 temporary disk a parquet export may take (default 1GiB); past it the export fails
  --csv-raw      csv: text cells exactly as stored; by default one starting with =, +, -, @, tab or CR
                 gets a leading ' so a spreadsheet shows it as text (docs/security.md)
${backendUsage}
  --explain      reports: print, without reading data, the normalized request, the plan, the SQL with
                 its parameters, the rollups chosen and why, and DuckDB's EXPLAIN (docs/extensions.md)
  --fill zero    tabular reports with the date dimension: every time bucket of the window for every
                 group key seen, with zero counts and null ratios where no row was
  --compare W    tabular reports: previous_period, previous_year or START..END; each metric gains
                 <metric>_previous, <metric>_change and <metric>_change_pct
  --components   each ratio metric followed by its numerator and denominator (v1 visibility, fan-outs)

Report extensions may also be given as PATH's query string, as over HTTP: PATH?explain=true.

Agent runs started by the call (or left queued) finish before the command exits. While a table
format is written to a file or pipe, rows and bytes so far show on stderr when it is a terminal.
Exit code: 0 success, 2 validation error (422, body printed), 3 forbidden or not found (403/404),
1 any other refusal, e.g. 409 for a never-published agent, or a failure (body printed: 503 unavailable
when a data file or a ClickHouse shard cannot be read, else 500 internal_error, the cause on stderr).`,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      data: { type: 'string' },
      org: { type: 'string' },
      method: { type: 'string' },
      body: { type: 'string' },
      'body-file': { type: 'string' },
      state: { type: 'string' },
      format: { type: 'string' },
      out: { type: 'string' },
      'csv-raw': { type: 'boolean' },
      'export-temp-limit': { type: 'string' },
      explain: { type: 'boolean' },
      fill: { type: 'string' },
      compare: { type: 'string' },
      components: { type: 'boolean' },
      ...backendParse,
    });
    const out = typeof values.out === 'string' ? values.out : undefined;
    const target = positionals[0];
    if (!target) throw new UsageError('PATH is required, e.g. /v2/reports/visibility');
    const url = new URL(target, 'http://localhost');
    const format = cliFormat(values.format, url.searchParams.get('format'));
    url.searchParams.delete('format');
    const bodyText =
      typeof values.body === 'string'
        ? values.body
        : typeof values['body-file'] === 'string'
          ? await readBody(values['body-file'], io)
          : undefined;
    const method = (
      typeof values.method === 'string' ? values.method : bodyText !== undefined ? 'POST' : 'GET'
    ).toUpperCase();
    if (values.explain === true) url.searchParams.set('explain', 'true');
    if (typeof values.fill === 'string') url.searchParams.set('fill', values.fill);
    if (typeof values.compare === 'string') url.searchParams.set('compare', values.compare);
    if (values.components === true) url.searchParams.set('components', 'true');
    const query = Object.fromEntries(
      [...new Set(url.searchParams.keys())].map((k) => [
        k,
        url.searchParams.getAll(k).length > 1 ? url.searchParams.getAll(k) : url.searchParams.get(k)!,
      ]),
    );
    const data = required(values, 'data');
    // One answer per process: a rollup started now would be thrown away at exit, and building it (or copying
    // the small tables into memory) costs more than the answer read from the files (bench/RESULTS.md, CLI start).
    // What `aea serve` or `aea rollups build` stored is read in place; a ClickHouse database keeps its own.
    const backend = backendOf(values);
    const engine = await openEngine({
      data,
      rollups: backend.backend === 'clickhouse' ? true : 'stored',
      ...(typeof values.org === 'string' ? { storedRollupsOf: values.org } : {}),
      smallTablesInMemory: false,
      resultCache: 0,
      state: typeof values.state === 'string' ? values.state : defaultStatePath(data),
      stateWhenLocked: 'snapshot',
      ...tempLimits(values),
      ...backend,
    });
    if (engine.core.state.readOnly)
      io.err(
        `aea: ${engine.core.state.file} is held by another process (such as aea serve): answering from a read-only snapshot of it; changes are refused\n`,
      );
    try {
      let body: unknown;
      if (bodyText !== undefined) {
        try {
          body = JSON.parse(bodyText);
        } catch (error) {
          return printError(
            io,
            new ValidationError([
              {
                type: 'json_invalid',
                loc: ['body', 0],
                msg: 'JSON decode error',
                input: {},
                ctx: { error: (error as Error).message },
              },
            ]),
          );
        }
      }
      const scope = engine.org(required(values, 'org'));
      const output = await openOutput(io, out, format, format !== 'table' && formats[format].binary);
      let written = false;
      try {
        if (format === 'table') {
          await output.write(
            await boxTable(await scope.invokeRows(method, url.pathname, { body, query, format: 'csv' }, 'csv')),
          );
        } else if (format === 'json') {
          const result = await scope.call(method, url.pathname, { body, query });
          if (result.kind === 'json') await output.write(result.json + '\n');
          else for await (const e of result.events) await output.write(formatSseEvent(e));
        } else {
          const progress = exportProgress(io, `aea query → ${format}`, out === undefined && io.stdout?.isTTY === true);
          try {
            const rows = countingRows(
              await scope.invokeRows(method, url.pathname, { body, query, format }, format),
              progress.rows,
            );
            for await (const piece of encodeRows(rows, format, {
              duckdb: engine.core.pool,
              tempDisk: engine.core.tempDisk,
              csvRaw: values['csv-raw'] === true,
            })) {
              await output.write(piece);
              progress.bytes(typeof piece === 'string' ? Buffer.byteLength(piece) : piece.byteLength);
            }
          } finally {
            progress.stop();
          }
        }
        written = true;
      } finally {
        await output.close(written);
      }
      await engine.runsSettled();
      return 0;
    } catch (error) {
      if (error instanceof EngineError) return printError(io, error);
      if (error instanceof UsageError || error instanceof DatasetError) throw error;
      // What the service would log goes to stderr; stdout gets the body the service would send, never a stack trace.
      io.err(`aea: ${error instanceof Error ? error.message : String(error)}\n`);
      return printError(io, dataUnavailable(error) ?? new InternalError());
    } finally {
      await engine.close();
    }
  },
};

/** `--format`, or the format PATH's query string names (as over HTTP); both must agree. `table` is the CLI's own. */
function cliFormat(flag: unknown, inPath: string | null): FormatName | 'table' {
  if (typeof flag === 'string' && inPath !== null && flag !== inPath)
    throw new UsageError(`--format ${flag} and PATH's format=${inPath} disagree: give one of them`);
  const format = typeof flag === 'string' ? flag : (inPath ?? 'json');
  if (format !== 'table' && !isFormatName(format))
    throw new UsageError(`--format must be one of ${[...formatNames, 'table'].join(', ')}, got ${format}`);
  return format;
}

function printError(io: CliIo, error: EngineError): number {
  io.out(JSON.stringify(error.body()) + '\n');
  return error.status === 422 ? 2 : error.status === 403 || error.status === 404 ? 3 : 1;
}

async function readBody(file: string, io: CliIo): Promise<string> {
  return file === '-' ? io.stdin() : readFile(file, 'utf8');
}
