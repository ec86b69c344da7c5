/**
 * The version of the code that computes answers, part of every answer's fingerprint (ETag): a cache
 * must not serve an answer computed by another version. Bump the suffix with any change that alters
 * an answer's bytes for the same request and data.
 */
export const engineVersion = '0.1.0+answers.2';
