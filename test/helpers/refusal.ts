import { ValidationError } from '../../src/errors.ts';

/** The one issue of the 422 a call throws; a failure when the call succeeds, throws something else, or names more than one issue. */
export function refusal(call: () => unknown): { loc: unknown; msg: string; input: unknown } {
  try {
    call();
  } catch (error) {
    if (error instanceof ValidationError && error.detail.length === 1) {
      const [d] = error.detail;
      return { loc: d!.loc, msg: d!.msg, input: d!.input };
    }
    throw error;
  }
  throw new Error('expected a 422');
}
