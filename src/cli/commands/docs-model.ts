import { writeFile } from 'node:fs/promises';
import { renderDataModel } from '../../model/render-doc.ts';
import { parse } from '../args.ts';
import type { Command } from './command.ts';

export const docsModel: Command = {
  usage: `aea docs-model [--out FILE]   (prints to stdout without --out)`,
  async run(argv, io) {
    const { values } = parse(argv, { out: { type: 'string' } });
    const text = renderDataModel();
    if (typeof values.out === 'string') await writeFile(values.out, text);
    else io.out(text);
    return 0;
  },
};
