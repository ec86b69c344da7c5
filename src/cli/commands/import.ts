import { checkDataset } from '../../engine/dataset-check.ts';
import { importFlat } from '../../import/flat-import.ts';
import { parse, required, UsageError } from '../args.ts';
import type { Command } from './command.ts';

export const importCommand: Command = {
  usage: `aea import ANSWERS --org NAME --out DIR [--citations FILE] [--owned BRAND]... [--replace | --append]

  ANSWERS          one row per answer and mentioned brand: executed_at, category, prompt, model, region
                   (required), answer_id, topic, persona, tags (a|b), language, brand, position,
                   response, search_triggered (optional); .csv, .json (an array), .ndjson or .parquet
  --org NAME       the organization the answers belong to
  --out DIR        the dataset folder to write (must be empty, or pass --replace)
  --citations F    one row per cited URL: answer_id, url (required), position, title, citation_category
  --owned BRAND    a brand that is the organization's own (repeat for several)
  --replace        remove what DIR holds first
  --append         add this organization to the dataset an earlier import wrote to DIR, keeping the
                   organizations already there (one that is already there is refused)

Writes the contract's tables the data defines, sorted, then checks the folder as \`aea check\` does
and names the operations that need tables the import does not write.`,
  async run(argv, io) {
    const { values, positionals } = parse(argv, {
      org: { type: 'string' },
      out: { type: 'string' },
      citations: { type: 'string' },
      owned: { type: 'string', multiple: true },
      replace: { type: 'boolean' },
      append: { type: 'boolean' },
    });
    const answers = positionals[0];
    if (!answers) throw new UsageError('ANSWERS is required: the flat answers file');
    const out = required(values, 'out');
    const result = await importFlat({
      answers,
      citations: typeof values.citations === 'string' ? values.citations : undefined,
      organization: required(values, 'org'),
      owned: (values.owned as string[] | undefined) ?? [],
      out,
      replace: values.replace === true,
      append: values.append === true,
    });
    const count = (t: keyof typeof result.rows) => result.rows[t] ?? 0;
    io.out(
      `aea: wrote ${out}: ${count('executions')} answers, ${count('mentions')} mentions, ${count('citations')} citations, ${count('assets')} brands\n`,
    );
    io.out(`organization ${result.organization.id} ${result.organization.name}\n`);
    for (const c of result.categories) io.out(`category ${c.id} ${c.name}\n`);
    io.out(`days ${result.window.start_date} to ${result.window.end_date}\n`);
    if (result.ignored.length > 0)
      io.out(`ignored columns (none of the file's; docs/own-data.md lists them): ${result.ignored.join(', ')}\n`);
    const problems = await checkDataset(out);
    for (const p of problems.filter((p) => p.severity !== 'warning')) io.out(`${p.severity.padEnd(8)} ${p.message}\n`);
    const absent = problems.filter((p) => p.severity === 'warning').map((p) => p.table);
    if (absent.length > 0)
      io.out(
        `not written: ${absent.join(', ')} (the operations that read them refuse; \`aea check ${out}\` names them)\n`,
      );
    const body = JSON.stringify({ category_id: result.categories[0]?.id, ...result.window, scope: 'all' });
    io.out(
      `\nnext: npx aea query /v2/reports/visibility --data ${out} --org ${result.organization.id} --body '${body}'\n`,
    );
    return problems.some((p) => p.severity === 'error') ? 1 : 0;
  },
};
