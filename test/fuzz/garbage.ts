import fc from 'fast-check';

/** SQL, LIKE, regex and control-character payloads, sent through every string a request can carry. */
export const injectionCorpus = [
  "'",
  "''",
  "' OR '1'='1",
  "'; DROP TABLE prompts; --",
  '"; DROP TABLE "mentions"; --',
  '%',
  '_',
  '\\',
  '\\\\%',
  '\0',
  'a\0b',
  '\n',
  '\r\n',
  '$1',
  '?',
  '/* */',
  'SELECT * FROM organizations',
  'UNION SELECT name FROM organizations',
  '(a+)+$',
  '(a|aa)*b',
  '(.*a){20}',
  'x{1000}{1000}',
  '[a-',
  '(?=x)',
  '\\1',
  '${jndi:ldap://x}',
  '../../etc/passwd',
  '\u202e',
  '\ud83d\ude00',
  '\ud800',
];

const deep = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : { and: [deep(depth - 1, leaf)] });

/** Values a careless or hostile client might put anywhere. */
export const garbageValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...injectionCorpus),
  fc.constantFrom(
    -1,
    0,
    -0,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    Number.MAX_SAFE_INTEGER,
    'NaN',
    'Infinity',
    '-1',
    '1e400',
    true,
    null,
    [],
    {},
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constant('x'.repeat(100_000)),
  fc.constant(Array.from({ length: 5000 }, (_, i) => `v${i}`)),
  fc.constant(deep(60, { field: 'model', op: 'is', value: 'x' })),
  fc.constant(deep(5, { field: 'model', op: 'matches', value: '(a+)+$' })),
);

/** Bodies that are not JSON objects at all. */
export const garbageText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '',
    '{',
    '}',
    '[',
    '{"a":',
    'null',
    'true',
    '1',
    '"x"',
    '{"a": NaN}',
    '{"a": Infinity}',
    '\u0000',
    '{"a":"\\x"}',
    '['.repeat(5000),
  ),
);
