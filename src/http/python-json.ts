export class JsonDecodeError extends Error {
  constructor(
    readonly reason: string,
    readonly pos: number,
  ) {
    super(reason);
  }
}

const ws = new Set([' ', '\t', '\n', '\r']);
const number = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const escapes: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Python's `json.loads`, for the error it raises: FastAPI answers a malformed body with the decoder's
 * message and character position. Only called when JSON.parse has already failed, or on inputs Python
 * accepts and JSON.parse does not (NaN, Infinity).
 */
export function pythonJsonParse(text: string): unknown {
  let i = 0;
  const skip = () => {
    while (i < text.length && ws.has(text[i]!)) i++;
  };
  const fail = (reason: string, at = i): never => {
    throw new JsonDecodeError(reason, [...text.slice(0, at)].length);
  };
  const parseString = (): string => {
    const start = i;
    i++;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('Unterminated string starting at', start);
      const c = text[i]!;
      if (c === '"') {
        i++;
        return out;
      }
      if (c < ' ') fail('Invalid control character at');
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          const hex = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('Invalid \\uXXXX escape', i + 1);
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else if (e !== undefined && e in escapes) {
          out += escapes[e];
          i += 2;
        } else {
          if (e === undefined) fail('Unterminated string starting at', start);
          fail('Invalid \\escape', i);
        }
      } else {
        out += c;
        i++;
      }
    }
  };
  const parseValue = (): unknown => {
    const c = text[i];
    if (c === '"') return parseString();
    if (c === '{') {
      i++;
      const obj: Record<string, unknown> = {};
      skip();
      if (text[i] === '}') {
        i++;
        return obj;
      }
      for (;;) {
        if (text[i] !== '"') fail('Expecting property name enclosed in double quotes');
        const key = parseString();
        skip();
        if (text[i] !== ':') fail("Expecting ':' delimiter");
        i++;
        skip();
        obj[key] = parseValue();
        skip();
        if (text[i] === '}') {
          i++;
          return obj;
        }
        if (text[i] !== ',') fail("Expecting ',' delimiter");
        i++;
        skip();
      }
    }
    if (c === '[') {
      i++;
      const arr: unknown[] = [];
      skip();
      if (text[i] === ']') {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue());
        skip();
        if (text[i] === ']') {
          i++;
          return arr;
        }
        if (text[i] !== ',') fail("Expecting ',' delimiter");
        i++;
        skip();
      }
    }
    for (const [word, value] of [
      ['null', null],
      ['true', true],
      ['false', false],
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return value;
      }
    }
    number.lastIndex = i;
    const m = number.exec(text);
    if (m) {
      i += m[0].length;
      return Number(m[0]);
    }
    return fail('Expecting value');
  };
  skip();
  const value = parseValue();
  skip();
  if (i < text.length) fail('Extra data');
  return value;
}
