const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };

const visibilityInput = {
  type: 'object',
  properties: { category_id: { type: 'string', format: 'uuid' }, start_date: date, end_date: date },
  required: ['category_id', 'start_date', 'end_date'],
  additionalProperties: false,
};

const botsInput = {
  type: 'object',
  properties: { domain: { type: 'string', minLength: 3 }, start_date: date, end_date: date },
  required: ['domain', 'start_date'],
  additionalProperties: false,
};

const visibilityBody = {
  category_id: '{{inputs.category_id}}',
  start_date: '{{inputs.start_date}}',
  end_date: '{{inputs.end_date}}',
};

/** JSON documents of the generated agents: input schemas and workflows whose steps are report requests. */
export const agentTemplates = {
  visibility_input: JSON.stringify(visibilityInput),
  bots_input: JSON.stringify(botsInput),
  output_schema: JSON.stringify({ type: 'object', additionalProperties: { type: 'object' } }),
  visibility_workflow: JSON.stringify({
    steps: [
      {
        id: 'visibility',
        method: 'POST',
        path: '/v2/reports/visibility',
        body: { ...visibilityBody, scope: 'all', limit: 5 },
      },
    ],
  }),
  visibility_workflow_v2: JSON.stringify({
    steps: [
      {
        id: 'visibility',
        method: 'POST',
        path: '/v2/reports/visibility',
        body: { ...visibilityBody, scope: 'all', limit: 10 },
      },
      {
        id: 'by_model',
        method: 'POST',
        path: '/v2/reports/visibility',
        body: { ...visibilityBody, scope: 'owned', group_by: ['model'] },
      },
    ],
  }),
  bots_workflow: JSON.stringify({
    steps: [
      {
        id: 'bots',
        method: 'POST',
        path: '/v1/reports/bots',
        body: {
          domain: '{{inputs.domain}}',
          start_date: '{{inputs.start_date}}',
          end_date: '{{inputs.end_date}}',
          metrics: ['count', 'citations'],
          dimensions: ['bot_name'],
        },
      },
    ],
  }),
};
