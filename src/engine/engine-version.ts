/**
 * The version of the code that computes answers, part of every answer's fingerprint (ETag): a cache
 * must not serve an answer computed by another version. Bump the suffix with any change that alters
 * an answer's bytes for the same request and data.
 */
export const engineVersion = '0.1.0+answers.2';

/**
 * The version of the table encodings (NDJSON, CSV, Arrow, Parquet), in the fingerprint of an answer in
 * one of them only, so a JSON answer keeps its fingerprint when only they change. Bump it with any
 * change of their bytes. 2: tabular counts Int64 and days Date32; CSV flattens struct references.
 */
export const formatsVersion = 'formats.2';
