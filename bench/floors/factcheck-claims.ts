import type { IterationParams } from '../lib/case.ts';
import { compareText } from './dims.ts';
import { num, str, v2Page } from './json.ts';
import { byKeys, refKeys, resolveKeys, type KeyDef } from './keys.ts';
import { page, stream, type FloorEnv, type ReportFloors } from './types.ts';
import { factcheckRollups, twoModels, window } from './factcheck-rollups.ts';
import { windowParams } from './window.ts';

/**
 * Fact-check claims: clusters with an inaccurate occurrence in scope, occurrence = 100 × answers carrying
 * it inaccurately / answers in scope (in the section), by occurrence descending, then claim text, then id;
 * sections by name, then id, each with its accuracy and its claims.
 */

interface Cluster {
  readonly id: string;
  readonly claim: string;
  readonly json: string;
  readonly details: string;
}

const clusters = (env: FloorEnv) =>
  env.dims.memo('clusters', async () => {
    const [code, id, claim, theme, reasoning] = await env.db.columns(
      'SELECT enum_code(id::floor_cluster), id, claim, theme, reasoning FROM claim_clusters',
    );
    const out = new Map<number, Cluster>();
    code!.forEach((c, i) =>
      out.set(c as number, {
        id: id![i] as string,
        claim: claim![i] as string,
        json: `"cluster_id":${str(id![i] as string)},"claim":${str(claim![i] as string)}`,
        details: `,"theme":${str(theme![i] as string)},"reasoning":${str(reasoning![i] as string)}`,
      }),
    );
    return out;
  });

interface ClaimSpec {
  readonly section?: KeyDef;
  readonly filter?: (env: FloorEnv) => string;
  readonly details?: boolean;
}

/** Per section (one when flat): answers, accurate and inaccurate occurrences, and each cluster's inaccurate answers. */
async function claims(env: FloorEnv, p: IterationParams, s: ClaimSpec) {
  const where = s.filter?.(env) ?? '';
  const key = s.section?.sql ?? '0';
  const [am, ak, an] = await env.db.columns(
    `SELECT enum_code(model), ${key}, sum(n)::INTEGER FROM floor_fc_answers WHERE ${window}${where} GROUP BY ALL`,
    windowParams(p),
  );
  const [ok, oc, oa, oi] = await env.db.columns(
    `SELECT ${key}, enum_code(cluster), sum(acc)::INTEGER, sum(inacc)::INTEGER FROM floor_fc_occ WHERE ${window}${where} GROUP BY ALL`,
    windowParams(p),
  );
  const answers = new Map<number | null, number>();
  ak!.forEach((k, i) => answers.set(k as number | null, (answers.get(k as number | null) ?? 0) + (an![i] as number)));
  const sections = new Map<number | null, { acc: number; inacc: number; claims: { cluster: number; n: number }[] }>();
  for (let i = 0; i < ok!.length; i++) {
    const k = ok![i] as number | null;
    let sec = sections.get(k);
    if (!sec) sections.set(k, (sec = { acc: 0, inacc: 0, claims: [] }));
    sec.acc += oa![i] as number;
    sec.inacc += oi![i] as number;
    if ((oi![i] as number) > 0) sec.claims.push({ cluster: oc![i] as number, n: oi![i] as number });
  }
  const catalog = await clusters(env);
  const claimRows = (k: number | null) => {
    const sec = sections.get(k)!;
    const total = answers.get(k)!;
    return sec.claims
      .map((c) => ({ c: catalog.get(c.cluster)!, occurrence: (100 * c.n) / total }))
      .sort((a, b) => b.occurrence - a.occurrence || compareText(a.c.claim, b.c.claim) || compareText(a.c.id, b.c.id))
      .map(({ c, occurrence }) => `{${c.json},"occurrence":${num(occurrence)}${s.details ? c.details : ''}}`);
  };
  const models = [...new Set(am as number[])].map((m) => env.dims.models[m]!.name).sort();
  return { sections, claimRows, models };
}

function claimsPage(s: ClaimSpec, limit = 25) {
  return page(async (env, p) => {
    const { sections, claimRows, models } = await claims(env, p, s);
    if (!s.section) {
      const rows = sections.has(0) ? claimRows(0) : [];
      return v2Page(rows.length, models, rows.slice(0, limit));
    }
    const [key] = await resolveKeys(env, p, [s.section]);
    const order = [...sections.keys()].map((k) => ({ vals: [k] })).sort(byKeys([key!]));
    const rows = order.slice(0, limit).map(({ vals: [k] }) => {
      const sec = sections.get(k!)!;
      const list = claimRows(k!);
      return `{${key!.part(k!)},"accuracy":${num(sec.acc + sec.inacc === 0 ? null : sec.acc / (sec.acc + sec.inacc))},"accurate":${sec.acc},"inaccurate":${sec.inacc},"total_claims":${list.length},"claims":[${list.join(',')}]}`;
    });
    return v2Page(order.length, models, rows);
  });
}

const claimsStream = stream(async function* (env, p) {
  const { sections, claimRows } = await claims(env, p, {});
  yield sections.has(0) ? claimRows(0) : [];
});

export const factcheckClaimsFloors: ReportFloors = {
  report: 'factcheck-claims',
  rollups: factcheckRollups.slice(0, 2),
  floors: () => ({
    ...Object.fromEntries([1, 7, 30, 90, 365].map((d) => [`window-${d}`, claimsPage({})])),
    'details-30': claimsPage({ details: true }),
    'models-30': claimsPage({ filter: twoModels }),
    'topic-30': claimsPage({ section: refKeys.topic }),
    'model-90': claimsPage({ section: refKeys.model }),
    'stream-365': claimsStream,
  }),
};
