import pl from 'nodejs-polars';
import type { Peer } from '../lib/case.ts';
import { parquetSource } from './parquet-files.ts';

const pageSize = 10;
const day = (d: string) => pl.lit(new Date(`${d}T00:00:00Z`)).cast(pl.Date);

/**
 * What a notebook user writes with nodejs-polars: lazy `scanParquet` over the same files for every
 * request, so projection and predicate pushdown do their best, then one collect.
 */
export const polarsVisibility: Peer = {
  name: 'polars',
  async open(dataset) {
    const scan = (table: string) => pl.scanParquet(parquetSource(dataset.dir, table));
    return {
      async run(p) {
        const inWindow = pl
          .col('category_id')
          .eq(pl.lit(p.categoryId))
          .and(pl.col('day').gtEq(day(p.startDate)))
          .and(pl.col('day').ltEq(day(p.endDate)));
        const prompts = scan('prompts')
          .filter(
            pl
              .col('category_id')
              .eq(pl.lit(p.categoryId))
              .and(pl.col('analysis_types').lst.contains(pl.lit('visibility'))),
          )
          .select(pl.col('id').alias('prompt_id'));
        const executions = scan('executions')
          .filter(inWindow)
          .select('prompt_id', 'model_id')
          .join(prompts, { on: 'prompt_id', how: 'semi' });
        const byModel = await executions
          .groupBy('model_id')
          .agg(pl.len().alias('n'))
          .join(scan('models').select(pl.col('id').alias('model_id'), 'name'), { on: 'model_id' })
          .collect();
        const total = Number(byModel.getColumn('n').sum() ?? 0);
        if (total === 0) return { total: 0, models: [], rows: [] };
        const mentions = scan('mentions')
          .filter(inWindow)
          .select('prompt_id', 'asset_id', 'position')
          .join(prompts, { on: 'prompt_id', how: 'semi' })
          .groupBy('asset_id')
          .agg(pl.len().alias('n'), pl.col('position').sum().alias('pos'));
        const ranked = await scan('assets')
          .filter(pl.col('category_id').eq(pl.lit(p.categoryId)))
          .select('id', 'name', 'is_owned')
          .join(mentions, { leftOn: 'id', rightOn: 'asset_id', how: 'left' })
          .withColumns(pl.col('n').fillNull(0).cast(pl.Float64).alias('n'))
          .withColumns(
            pl.col('n').div(pl.lit(total)).alias('visibility_score'),
            pl
              .when(pl.col('n').sum().eq(0))
              .then(pl.lit(0.0))
              .otherwise(pl.col('n').div(pl.col('n').sum()))
              .alias('share_of_voice'),
            pl
              .when(pl.col('n').eq(0))
              .then(pl.lit(null))
              .otherwise(pl.col('pos').cast(pl.Float64).div(pl.col('n')))
              .alias('average_position'),
          )
          // nodejs-polars 0.24 (the last whose binding supports Node 20) sorts several keys in one direction only.
          .withColumns(pl.col('visibility_score').mul(-1).alias('best_first'))
          .sort(['best_first', 'name', 'id'])
          .collect();
        const rows = ranked
          .head(pageSize)
          .toRecords()
          .map((r, i) => ({
            asset: { name: r.name, owned: r.is_owned },
            rank: i + 1,
            visibility_score: r.visibility_score,
            share_of_voice: r.share_of_voice,
            average_position: r.average_position ?? null,
          }));
        const models = (byModel.getColumn('name').toArray() as string[]).sort();
        return { total: ranked.height, models, rows };
      },
    };
  },
};
