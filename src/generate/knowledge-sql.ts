/**
 * Knowledge bases: one per organization, a folder per category holding ten fact sheets (one per claim
 * statement, three sections each), a policies folder and an empty drafts folder. Claim evidence points
 * at a section of the fact sheet about the claim's statement.
 */
export const knowledgeBaseSql = [
  `CREATE TABLE knowledge_bases AS
   SELECT org_idx, uid('kb', org_idx, 0) AS id, id AS organization_id, name || ' knowledge base' AS name, 'product-facts' AS slug,
          'Fact sheets and policies the fact-check compares answers against' AS description,
          created_at + to_days(5) AS created_at
   FROM organizations`,

  `CREATE TABLE g_kb_cat AS
   SELECT c.*, kb.id AS knowledge_base_id, kb.created_at AS kb_created,
          trim(lower(regexp_replace(c.name, '[^A-Za-z0-9]+', '-', 'g')), '-') AS slug
   FROM categories c JOIN knowledge_bases kb USING (org_idx)`,

  `CREATE TABLE kb_folders AS
   SELECT knowledge_base_id, organization_id, slug AS path, kb_created + to_days(1) AS created_at FROM g_kb_cat
   UNION ALL
   SELECT id, organization_id, f.path, created_at + to_days(2) FROM knowledge_bases, (VALUES ('policies'), ('drafts')) f(path)`,

  `CREATE TABLE kb_documents AS
   WITH facts AS (
     SELECT c.*, n.i AS n, getvariable('l_claim_statement')[1 + n.i] AS statement FROM g_kb_cat c CROSS JOIN range(10) n(i)
   ), policies AS (
     SELECT kb.*, o.brand, p.i, p.doc, p.topic
     FROM knowledge_bases kb JOIN organizations o ON o.id = kb.organization_id,
          (VALUES (0, 'returns', 'returns and refunds'), (1, 'shipping', 'shipping and delivery'), (2, 'warranty', 'warranty and repairs')) p(i, doc, topic)
   ), docs AS (
     SELECT uid('kbdoc', cat_idx, n) AS id, organization_id, knowledge_base_id, slug || '/facts-' || (n + 1) || '.md' AS path,
            '# ' || name || ': which brands ' || statement || '?' || chr(10) || chr(10) ||
            'None of the brands tracked in ' || name || ' ' || statement || ' according to their published terms; answers that say so are inaccurate.' || chr(10) || chr(10) ||
            'Fact sheet ' || (n + 1) || ' for ' || name || ': claims that a brand ' || statement || ' are not supported by the manufacturer documentation we reviewed.' || chr(10) || chr(10) ||
            'Before repeating that a ' || lower(noun) || ' brand ' || statement || ', cite the brand''s own policy page.' AS text,
            ['facts', slug] AS tags,
            kb_created + to_days(1 + n) AS created_at,
            timezone('UTC', TIMESTAMP '2025-06-01 00:00:00' + to_days(floor(rnd('kb_t', cat_idx, n) * 300)::INT)) AS updated_at
     FROM facts
     UNION ALL
     SELECT uid('kbpolicy', org_idx, i), organization_id, id, 'policies/' || doc || '.md',
            '# ' || brand || ' ' || topic || chr(10) || chr(10) ||
            brand || ' publishes its ' || topic || ' policy on its website; it is the only source the support team quotes.' || chr(10) || chr(10) ||
            'Changes to the ' || topic || ' policy take effect on the date shown on the policy page.',
            ['policy'], created_at + to_days(3), created_at + to_days(30 + i)
     FROM policies
   )
   SELECT id, organization_id, knowledge_base_id, path, text, tags, created_at, greatest(created_at, updated_at) AS updated_at FROM docs`,

  // Section k + 1 of the claim's fact sheet: the heading is section 1, so evidence points at sections 2-4.
  `CREATE TABLE claim_evidence_links AS
   WITH k AS (SELECT cc.*, unnest(range(1 + floor(rnd('ev_n', cc.cat_idx, cc.cluster_i) * 3)::INT)) AS k FROM claim_clusters cc)
   SELECT uid('evidence', k.cat_idx * 100 + k.cluster_i, k.k) AS id, k.organization_id, k.id AS cluster_id, c.knowledge_base_id,
          c.slug || '/facts-' || (k.cluster_i % 10 + 1) || '.md' AS document_path, (k.k + 2)::INT AS section
   FROM k JOIN g_kb_cat c USING (cat_idx)`,
];
