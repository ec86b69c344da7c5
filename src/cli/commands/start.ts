import { openEngine } from '../../engine/engine.ts';
import { ensureSample } from '../../generate/sample.ts';
import { stderrProgress } from '../../generate/progress.ts';
import type { Command } from './command.ts';

export const start: Command = {
  summary: 'build the bundled sample if needed and run a sample visibility report on it',
  usage: `aea start`,
  async run() {
    const dir = await ensureSample(stderrProgress('building data/sample'));
    const engine = await openEngine({ data: dir });
    try {
      const [org] = await engine.listOrganizations();
      const category = org!.categories[0]!;
      const body = { category_id: category.id, start_date: '2026-10-01', end_date: '2026-10-31', scope: 'all', limit: 5 };
      const report = await engine.org(org!.id).reports.visibility!(body);
      process.stdout.write(`Visibility of "${category.name}" (${org!.name}), October 2026:\n${JSON.stringify(report, null, 2)}\n`);
    } finally {
      engine.close();
    }
    return 0;
  },
};
