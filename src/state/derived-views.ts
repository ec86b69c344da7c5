/**
 * Views over the state store's editable tables, created at every open (never stored, so they can
 * change without a migration). They read the current rows: an edit shows in the next query.
 */
export const derivedViews: readonly string[] = [
  // TRICKY: a section is a block of text between blank lines (lines of spaces or tabs count as blank), trimmed, empty ones
  // dropped, numbered from 1. Search snippets and fact-check evidence both read sections here, so they always agree.
  `CREATE OR REPLACE VIEW kb_sections AS
   SELECT organization_id, knowledge_base_id, id AS document_id, path, updated_at,
          unnest(range(1, len(parts) + 1))::INTEGER AS section, unnest(parts) AS body
   FROM (
     SELECT *, list_filter(list_transform(regexp_split_to_array(replace(text, chr(13), ''), '\\n(?:[ \\t]*\\n)+'), s -> trim(s, ' ' || chr(9) || chr(10))), s -> s <> '') AS parts
     FROM kb_documents
   )`,
  // Evidence is a pointer into the knowledge base; its text and date are the section's and the document's now.
  // A pointer whose document or section no longer exists is no evidence.
  `CREATE OR REPLACE VIEW claim_evidence AS
   SELECT e.id, e.organization_id, e.cluster_id, e.document_path || '#' || e.section AS kb_path, s.body AS kb_snippet, s.updated_at AS source_updated_at
   FROM claim_evidence_links e
   JOIN kb_sections s ON s.organization_id = e.organization_id AND s.knowledge_base_id = e.knowledge_base_id AND s.path = e.document_path AND s.section = e.section`,
];
