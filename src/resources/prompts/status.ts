import { z } from 'zod';
import { valueError, ValidationError, type ValidationIssue } from '../../errors.ts';
import { laxBool, zUuid } from '../../query/schema-types.ts';
import { sql } from '../../query/sql.ts';
import { parseWith } from '../../query/validation.ts';
import { jsonResult, type CallContext, type Endpoint, type EndpointInput } from '../../reports/endpoint.ts';
import { categoryOf, categoryPath } from '../params.ts';
import { execute, readRows } from '../../engine/rows.ts';
import { maxBatch } from './update.ts';

const statusSchema = z.strictObject({
  prompt_ids: z.array(zUuid()).min(1).max(maxBatch),
  status: z
    .enum(['active', 'disabled', 'deleted'])
    .describe(
      'active runs daily; disabled stops running and keeps history; deleted removes the prompt and, from every report, its history',
    ),
  dry_run: laxBool().nullable().optional(),
});

export const updatePromptStatus: Endpoint = {
  method: 'PATCH',
  path: '/v1/org/categories/{category_id}/prompts/status',
  name: 'updatePromptStatus',
  group: 'resources',
  summary: 'Activate, disable or delete prompts; a prompt already in the target status is left untouched',
  tags: ['Organization'],
  stream: false,
  schemas: { params: categoryPath, body: statusSchema },
  async handle(input: EndpointInput, ctx: CallContext) {
    const categoryId = categoryOf(input, ctx);
    const body = parseWith(statusSchema, input.body);
    const dryRun = body.dry_run ?? false;
    const updated = await ctx.core.state.transaction(
      async (conn) => {
        const rows = await readRows(conn, sql`SELECT id, status FROM state.prompts WHERE category_id = ${categoryId}`);
        const current = new Map(rows.map((r) => [String(r.id), String(r.status)]));
        const issues: ValidationIssue[] = [];
        const targets = new Set<string>();
        body.prompt_ids.forEach((id, i) => {
          const status = current.get(id);
          if (status === undefined)
            issues.push(valueError(['body', 'prompt_ids', i], `no prompt with id ${id} in this category`, id));
          else if (status !== body.status) targets.add(id);
        });
        if (issues.length > 0) throw new ValidationError(issues);
        if (!dryRun && targets.size > 0) {
          const ids = sql`(SELECT unnest(from_json(${JSON.stringify([...targets])}, '["VARCHAR"]')))`;
          if (body.status === 'deleted')
            await execute(conn, sql`DELETE FROM state.prompts WHERE category_id = ${categoryId} AND id IN ${ids}`);
          else
            await execute(
              conn,
              sql`UPDATE state.prompts SET status = ${body.status}, updated_at = CAST(${ctx.now.toISOString()} AS TIMESTAMPTZ) WHERE category_id = ${categoryId} AND id IN ${ids}`,
            );
        }
        return targets.size;
      },
      { promptsOf: dryRun ? undefined : categoryId },
    );
    return jsonResult({ dry_run: dryRun, updated_prompts: updated });
  },
};
