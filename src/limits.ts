/**
 * Every bound of the engine and the service in one place, each with the reason for its figure.
 * docs/security.md states them for users; tests import them from here rather than repeating numbers.
 * Bounds that belong to one report's request shape (page sizes, filter trees, windows) stay with that
 * shape and are listed in docs/security.md.
 */

const MiB = 1024 * 1024;

// ── Streams ────────────────────────────────────────────────────────────────────────────────────────

/** Rows one stream may hold on the JS side between DuckDB and its reader (socket or async iterator). */
export const streamBufferRows = 4_096;

/**
 * What the memory budget reserves per open stream. A stream holds one DuckDB chunk (at most 2,048 rows)
 * and one encoded slice; the widest generated row, a prompt answer, averages about 1 KiB (1.5 KiB at
 * most), so a chunk fits. A chunk of wider user rows takes its own width: it is not cut to this.
 */
export const streamBufferBytes = 4 * MiB;

/** Streams open at once in one process, whoever reads them: what the memory budget reserves buffers for. */
export const defaultMaxStreams = 16;

/** Streams open at once per API key (a fifth is a 429 `too_many_streams`). */
export const defaultStreamsPerKey = 4;

/** A stream open longer than this is cut, so a reader that never finishes cannot hold a slot forever. */
export const defaultStreamSeconds = 600;

/** Retry-After of a 503 `server_busy` (every global stream slot taken): streams last seconds to minutes. */
export const serverBusyRetrySeconds = 5;

// ── Time and sharing ───────────────────────────────────────────────────────────────────────────────

/**
 * How long one non-stream request may run before its statement is interrupted. Below the official
 * client's 60 s per-attempt timeout, so the client gets the service's error instead of its own timeout.
 */
export const defaultTimeBudgetMs = 30_000;

/** Heavy (report) requests one API key may have running at once; one more is a 429 `too_many_heavy_requests`. */
export const defaultHeavyPerKey = 2;

/** Retry-After of `too_many_heavy_requests`: a heavy request usually finishes within a second or two. */
export const heavyBusyRetrySeconds = 1;

/**
 * DuckDB connections for heavy work (reports, rollup builds). Kept below the libuv thread pool's
 * default of 4 threads, which runs every DuckDB call: heavy statements can never take all of them.
 */
export const defaultHeavyConnections = 3;

/**
 * DuckDB connections reserved for light work (state reads and writes, key loading), never taken by
 * reports: two, since edits run one at a time, so one is always free for reads while an edit commits.
 */
export const defaultLightConnections = 2;

/**
 * The longest a request's own JS work runs before it gives the event loop a turn (validation and
 * planning of large batches): well under the 50 ms any request may hold the loop.
 */
export const sliceMs = 10;

/** Listing answers kept in memory per state store (bytes of JSON), so listings never wait for DuckDB. */
export const listingCacheBytes = 32 * MiB;

/**
 * The answer rows (groups, by model where the source keeps it) a lean page reads before it falls back to the
 * one-statement form, which ranks and cuts in SQL: past this the groups are no longer few (bench/lean-pages.ts:
 * 2,920 rows still read in 0.85 of the one-statement time at scale 1; bench/RESULTS.md).
 */
export const leanAnswerRows = 4_096;

/** Dimension rows (names, owners) kept in memory for lean pages, per engine; the least recently read go first. */
export const dimensionCacheBytes = 16 * MiB;

/** The result cache's default bound (`resultCache`, `--result-cache`): at most an eighth of the memory budget. */
export const defaultResultCacheBytes = 64 * MiB;

/**
 * A dimension table (any table not ordered by time) whose Parquet files take at most this many bytes is
 * copied into memory at open; facts and larger tables are read from their files. At scale 10 the
 * copied tables hold a few MiB in all.
 */
export const smallTableBytes = 16 * MiB;

// ── Memory ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Without `memoryLimit`, the process budget is this share of physical memory. DuckDB's own default is 80%, but the
 * engine shares the machine with Node's heap, the page cache its Parquet reads go through and, in a notebook or a
 * service, other processes: at scale 100 on 24 GB, 80% let the process reach 20.4 GB (bench/RESULTS.md).
 */
export const defaultMemoryFraction = 0.5;

/** The least DuckDB is given once stream buffers are reserved: below this a budget is refused at open. */
export const minDatabaseMemory = 64 * MiB;

// ── Requests ───────────────────────────────────────────────────────────────────────────────────────

/** A request body larger than this is a 413. */
export const maxBodyBytes = 1 * MiB;

/**
 * Nesting of arrays and objects in a JSON body. The deepest valid body, a filter tree 8 groups deep,
 * nests about 20 levels; past this the body is a 422 before anything recurses over it.
 */
export const maxJsonDepth = 64;

/** Prompts in one create, update or status request. */
export const maxPromptsPerRequest = 1_000;

/** Tags, personas, regions or platforms one prompt entry may list. */
export const maxRefsPerPrompt = 100;

/** Characters in a topic or tag name. */
export const maxNameLength = 200;

/** Characters in a prompt's text. */
export const maxPromptLength = 4_000;

/** A presented API key longer than this is not looked up. */
export const maxApiKeyLength = 200;

// ── Rate limits ────────────────────────────────────────────────────────────────────────────────────

export const defaultRateLimit = { max: 600, windowSeconds: 3600 } as const;

/**
 * Rate-limit windows one limiter holds in memory (API keys; client addresses apart). Past it the least
 * recently seen window is forgotten: a forgotten address starts a fresh window, so a client spreading
 * requests over more addresses than this gets no more than 600 requests an hour from each.
 */
export const maxRateWindows = 100_000;

/**
 * Requests per window per client address without a valid key (failed authentication). Kept when the
 * per-key limit is off (`--rate-limit 0`), unless `--failed-auth-limit 0` turns it off too.
 */
export const defaultFailedAuthLimit = { max: 600, windowSeconds: 3600 } as const;

/**
 * How often changed rate-limit counters are written to the state store. A crash loses at most this
 * much counting; a key's first refusal in a window is written at once, so a limited key stays limited.
 */
export const rateFlushMs = 1_000;

/** Above this wait a 429 also says `x-should-retry: false`, so the official client fails fast instead of sleeping. */
export const maxClientWaitSeconds = 60;

/**
 * The most characters of a caller's `input` a 422 echoes back per issue: a 500,000-character document text
 * refused as too long once came back whole. A longer string is cut there and ends with `…`; a longer list
 * or object becomes its JSON text, cut the same way.
 */
export const maxEchoedInputChars = 1_000;

/**
 * Temporary disk of one export: 1 GiB. Parquet is written a slice at a time into compressed parts, then
 * into the file, sent once complete; a three-year v1 visibility stream with fill, compare and components
 * over the sample once wrote 2,989 MiB of NDJSON for a 591 KB file when the rows went to one NDJSON file
 * first. Past the bound the export is a 413.
 */
export const defaultExportTempBytes = 2 ** 30;

/** Temporary disk of every export of the process together: 4 GiB; past it a new export waits on a 503. */
export const defaultTempBytes = 4 * 2 ** 30;

/**
 * The longest a stream or a table-format answer may take to its first piece (a stream's summary or
 * first row; a Parquet file, which comes whole): 120 s. Its headers wait for that piece, so a failure
 * before it is answered with its own status; past the bound the query is stopped with a 503.
 */
export const defaultFirstRowSeconds = 120;

/**
 * A knowledge base holds at most this many documents and this many bytes of text (UTF-8). Its search
 * index lives in memory (about 5–10 bytes per byte of text) and is built on its first search, so
 * the bytes bound what one knowledge base costs; past either, a create or update is a 413.
 */
export const maxKbDocuments = 10_000;
export const maxKbTextBytes = 32 * MiB;

/**
 * Text indexed in the search worker across knowledge bases: past it the least recently searched
 * indexes are dropped (and rebuilt on their next search), so the worker's memory stays bounded
 * however many knowledge bases are searched.
 */
export const maxIndexedTextBytes = 128 * MiB;

/** Documents go to the search worker in batches of at most this much text, so no copy holds the event loop long. */
export const kbLoadBatchBytes = 1 * MiB;

/** The most bytes the rollup store on disk holds (EngineOptions.rollupStoreLimit): scale 10's rollups take far less. */
export const defaultRollupStoreBytes = 8 * 2 ** 30;

/**
 * Segments a stored rollup holds at most (EngineOptions.rollupSegments): each append's refresh stores the
 * days it refolded as one; the refresh that would add one more reads the rollup and writes it as a new
 * base. A week of daily appends stays segments; reading a rollup reads its base and every segment.
 */
export const defaultRollupSegments = 8;
