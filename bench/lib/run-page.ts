import type { Answer, PeerSide } from './case.ts';
import { Json } from '../floors/json.ts';
import { round, StallMonitor, stats, timed } from './measure.ts';
import {
  bodyAt,
  check,
  commonFigures,
  interleave,
  requestBudget,
  readFloor,
  requestBase,
  type RequestResult,
  type RequestRun,
  type Side,
} from './request-run.ts';

/**
 * A page request: engine, expert floor, old floor and peers interleaved, answers compared on every
 * iteration. The floor's time includes serializing its answer to JSON, as the engine's includes its body.
 */
export async function runPage(
  run: RequestRun,
  peers: Map<string, { side: PeerSide; loadMs: number }>,
): Promise<RequestResult> {
  const { engine, conn, rc, request, options, env } = run;
  if (run.floor.kind !== 'page') throw new Error(`${rc.report} ${request.id}: the floor is not a page floor`);
  const floor = run.floor;
  const stmt = options.oldFloors ? await conn.prepare(request.oldFloor.sql) : null;
  const stall = new StallMonitor();
  const answers = new Map<string, Answer>();
  let resultRows = 0;
  let checked = 0;
  const peerTime = new Map((request.peers ?? []).map((p) => [p.name, { ms: 0, runs: 0 }]));
  const mayRun = (name: string) => {
    const t = peerTime.get(name);
    return !t || t.runs < 3 || t.ms < options.peerBudgetSeconds * 1000;
  };
  const compare = (i: number) => {
    for (const [name, answer] of answers) {
      if (name !== 'engine')
        check(`${rc.report} ${request.id} iteration ${i}: engine vs ${name}`, answers.get('engine'), answer);
    }
    answers.clear();
    checked++;
  };

  const sides: Side[] = [
    {
      name: 'engine',
      run: async (i) => {
        const { p, body } = bodyAt(run, i);
        const org = engine.org(p.organizationId);
        const { ms, value } = await stall.around(() => timed(() => org.call('POST', rc.path, { body })));
        if (value.kind !== 'json') throw new Error(`${rc.path} did not answer JSON`);
        const json = JSON.parse(value.json) as { data?: unknown[] };
        resultRows = Math.max(resultRows, json.data?.length ?? 0);
        answers.set('engine', request.engineAnswer(json));
        return ms;
      },
    },
    {
      name: 'floor',
      run: async (i) => {
        const { p } = bodyAt(run, i);
        const { ms, value } = await timed(async () => {
          const answer = await floor.run(env, p);
          return answer instanceof Json ? answer.text : JSON.stringify(answer);
        });
        answers.set('floor', JSON.parse(value));
        return ms;
      },
    },
    ...(stmt
      ? [
          {
            name: 'old floor',
            run: async (i: number) => {
              const { p } = bodyAt(run, i);
              const { ms, value } = await timed(() => readFloor(stmt, request, p));
              answers.set('old floor', request.oldFloor.answer(value));
              return ms;
            },
          },
        ]
      : []),
    ...(request.peers ?? []).map(
      (peer): Side => ({
        name: peer.name,
        run: async (i) => {
          const { p, body } = bodyAt(run, i);
          const { ms, value } = await timed(() => peers.get(peer.name)!.side.run(p, body));
          const t = peerTime.get(peer.name)!;
          if (i >= 0) peerTime.set(peer.name, { ms: t.ms + ms, runs: t.runs + 1 });
          answers.set(peer.name, value);
          return ms;
        },
      }),
    ),
  ];
  const samples = new Map(sides.map((s) => [s.name, [] as number[]]));
  await interleave(sides, -options.warmup, options.warmup, samples, () => true, compare);
  await interleave(sides, 0, options.iterations, samples, mayRun, compare, requestBudget(options));
  stmt?.destroySync();

  return {
    ...requestBase(run),
    ...(await commonFigures(run, samples)),
    resultRows,
    maxStallMs: round(stall.maxMs, 1),
    stream: null,
    peers: Object.fromEntries(
      (request.peers ?? []).map((p) => [p.name, { ...stats(samples.get(p.name)!), loadMs: peers.get(p.name)!.loadMs }]),
    ),
    checked,
  };
}
