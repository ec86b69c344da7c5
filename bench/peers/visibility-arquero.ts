import * as aq from 'arquero';
import pl from 'nodejs-polars';
import type { Peer } from '../lib/case.ts';
import { parquetSource } from './parquet-files.ts';

const pageSize = 10;
const ms = (d: string) => Date.parse(`${d}T00:00:00Z`);

/**
 * Arquero over the same tables held in memory as Arrow (arquero reads no Parquet: the files are loaded once
 * through polars, ids as dictionaries, which is arquero's fastest layout). The query is what a notebook
 * user writes: filter, semijoin, groupby/rollup, then rank the category's brands.
 */
export const arqueroVisibility: Peer = {
  name: 'arquero',
  async open(dataset) {
    const load = (table: string, columns: string[], categorical: string[]) => {
      const frame = pl
        .scanParquet(parquetSource(dataset.dir, table))
        .select(...columns)
        .withColumns(...categorical.map((c) => pl.col(c).cast(pl.Categorical)))
        .collectSync()
        .rechunk();
      return aq.fromArrow(frame.writeIPC(), { useDate: false });
    };
    const prompts = load('prompts', ['id', 'category_id', 'analysis_types'], []);
    const assets = load('assets', ['id', 'category_id', 'name', 'is_owned'], []);
    const models = load('models', ['id', 'name'], []);
    const executions = load(
      'executions',
      ['category_id', 'day', 'prompt_id', 'model_id'],
      ['category_id', 'prompt_id', 'model_id'],
    );
    const mentions = load(
      'mentions',
      ['category_id', 'day', 'prompt_id', 'asset_id', 'position'],
      ['category_id', 'prompt_id', 'asset_id'],
    );
    return {
      async run(p) {
        const $ = { cat: p.categoryId, start: ms(p.startDate), end: ms(p.endDate) };
        const tracked = prompts
          .filter(
            aq.escape(
              (d: { category_id: string; analysis_types: string[] }) =>
                d.category_id === $.cat && Array.from(d.analysis_types).includes('visibility'),
            ),
          )
          .select({ id: 'prompt_id' });
        const inWindow = (d: { category_id: string; day: number }, q: typeof $) =>
          d.category_id === q.cat && d.day >= q.start && d.day <= q.end;
        const answered = executions.params($).filter(inWindow).semijoin(tracked, 'prompt_id');
        const total = answered.numRows();
        if (total === 0) return { total: 0, models: [], rows: [] };
        const modelNames = answered
          .select('model_id')
          .dedupe()
          .join(models.rename({ id: 'model_id' }), 'model_id')
          .array('name') as string[];
        const counts = mentions
          .params($)
          .filter(inWindow)
          .semijoin(tracked, 'prompt_id')
          .groupby('asset_id')
          .rollup({ n: aq.op.count(), pos: aq.op.sum('position') });
        const all = counts.rollup({ t: aq.op.sum('n') }).get('t', 0) ?? 0;
        const ranked = assets
          .params($)
          .filter((d: { category_id: string }, q: typeof $) => d.category_id === q.cat)
          .join_left(counts, ['id', 'asset_id'])
          .derive({ n: (d: { n?: number }) => (d.n == null ? 0 : d.n) })
          .params({ total, all })
          .derive({
            visibility_score: (d: { n: number }, q: { total: number }) => d.n / q.total,
            share_of_voice: (d: { n: number }, q: { all: number }) => (q.all === 0 ? 0 : d.n / q.all),
            average_position: (d: { n: number; pos: number }) => (d.n === 0 ? null : d.pos / d.n),
          })
          .orderby(aq.desc('visibility_score'), 'name', 'id');
        const rows = ranked
          .slice(0, pageSize)
          .objects()
          .map((r: Record<string, unknown>, i: number) => ({
            asset: { name: r.name, owned: r.is_owned },
            rank: i + 1,
            visibility_score: r.visibility_score,
            share_of_voice: r.share_of_voice,
            average_position: r.average_position,
          }));
        return { total: ranked.numRows(), models: [...modelNames].sort(), rows };
      },
    };
  },
};
