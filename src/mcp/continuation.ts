// Its own module: the stdio server's start path reads it without loading the tool catalog (zod, the extensions).
/** The arguments every read tool takes besides its request: the continuation of a bounded answer. */
export const continuation = {
  result_cursor: {
    type: 'string',
    description:
      'the next_cursor of a previous answer of this tool: continues where it stopped (the other arguments are taken from the cursor)',
  },
  max_rows: {
    type: 'integer',
    minimum: 1,
    maximum: 200,
    description: 'rows per answer, 1 to 200 (default 50); an answer also stops before 100 KB of rows',
  },
} as const;
