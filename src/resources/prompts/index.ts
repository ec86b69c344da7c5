import type { Endpoint } from '../../reports/endpoint.ts';
import { createPrompts } from './create.ts';
import { listPrompts } from './list.ts';
import { updatePromptStatus } from './status.ts';
import { updatePrompts } from './update.ts';

/** The prompts of a category: list, create, update (E9), status. */
export const promptEndpoints: readonly Endpoint[] = [listPrompts, createPrompts, updatePrompts, updatePromptStatus];
