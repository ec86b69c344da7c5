export interface CategoryVocab {
  readonly name: string;
  readonly noun: string;
  readonly shopping: boolean;
  readonly topics: readonly string[];
  readonly tags: readonly string[];
  readonly personas: readonly string[];
  readonly themes: readonly string[];
  readonly audiences: readonly string[];
}

export interface OrgVocab {
  readonly name: string;
  readonly brand: string;
  readonly domains: readonly string[];
  readonly categories: readonly CategoryVocab[];
}

export const orgs: readonly OrgVocab[] = [
  {
    name: 'Acme Outdoor Co',
    brand: 'Acme Trail',
    domains: ['acmeoutdoor.com', 'acmetrailjournal.com'],
    categories: [
      {
        name: 'Hiking Boots',
        noun: 'hiking boots',
        shopping: true,
        topics: [
          'Waterproof hiking boots',
          'Boot sizing and fit',
          'Leichte Trailschuhe (Größe)',
          'Winter hiking footwear',
          'Boot durability',
          'Budget hiking boots',
        ],
        tags: ['boots-core', 'boots-saisonnière', 'boots-comparison', 'boots-beginner'],
        personas: ['Weekend Hiker', 'Thru-Hiker Zoë', 'Trail Runner'],
        themes: ['Boot comfort', 'Boot price', 'Boot waterproofing', 'Boot support'],
        audiences: ['beginners', 'wide feet', 'rocky terrain', 'long trails', 'wet climates'],
      },
      {
        name: 'Backpacking Tents',
        noun: 'backpacking tents',
        shopping: true,
        topics: ['Ultraléger tents', 'Four-season tents', 'Tent setup', 'Two-person tents', 'Tent weather résistance'],
        tags: ['tents-core', 'tents-gear-guide', 'tents-premium'],
        personas: ['Ultralight Backpacker', 'Family Camper', 'Alpine Climber'],
        themes: ['Tent weight', 'Tent price', 'Tent durability', 'Tent space'],
        audiences: ['solo trips', 'couples', 'high winds', 'desert camping', 'snow camping'],
      },
    ],
  },
  {
    name: 'Northwind Health',
    brand: 'Northwind Care',
    domains: ['northwindhealth.com', 'northwindvitamins.com'],
    categories: [
      {
        name: 'Telehealth Services',
        noun: 'telehealth services',
        shopping: false,
        topics: [
          'Online doctor visits',
          'Telehealth insurance coverage',
          'Mental health teletherapy 🧠',
          'Virtual urgent care',
          'Prescription refills online',
        ],
        tags: ['tele-core', 'tele-insurance', 'tele-mental-health', 'tele-urgent'],
        personas: ['Busy Parent', 'Rural Patient', 'Chronic Care Patient'],
        themes: ['Telehealth wait times', 'Telehealth cost', 'Doctor quality', 'App usability'],
        audiences: ['families', 'seniors', 'students', 'rural areas', 'night shifts'],
      },
      {
        name: 'Vitamin Supplements',
        noun: 'vitamin supplements',
        shopping: true,
        topics: [
          'Vitamin D supplements 💊',
          'Daily multivitamins',
          'Omega-3 fish oil',
          'Supplement safety',
          'Vegan vitamins',
        ],
        tags: ['vitamins-core', 'vitamins-safety', 'vitamins-vegan'],
        personas: ['Fitness Enthusiast', 'Expecting Mother', 'Senior Wellness Seeker'],
        themes: ['Supplement purity', 'Supplement price', 'Supplement taste (味)', 'Supplement efficacy'],
        audiences: ['athletes', 'pregnancy', 'over 50', 'vegans', 'immune support'],
      },
    ],
  },
  {
    name: 'Globex Fintech',
    brand: 'Globex Pay',
    domains: ['globexfintech.com', 'globexmortgage.com'],
    categories: [
      {
        name: 'Travel Credit Cards',
        noun: 'travel credit cards',
        shopping: false,
        topics: [
          'Airline miles cards',
          'No foreign fee cards',
          'Card sign-up bonuses',
          'Lounge access cards',
          'Card annual fees',
        ],
        tags: ['cards-core', 'cards-rewards', 'cards-premium', 'cards-fees'],
        personas: ['Frequent Flyer', 'Points Maximizer', 'Student Traveler'],
        themes: ['Card rewards value', 'Card fees', 'Card customer service', 'Card approval'],
        audiences: ['international travel', 'business travel', 'fair credit', 'families', 'first cards'],
      },
      {
        name: 'Home Mortgages',
        noun: 'mortgage lenders',
        shopping: false,
        topics: [
          'First-time buyer mortgages',
          'Mortgage refinancing',
          'Fixed versus adjustable rates',
          'Mortgage pre-approval',
          'Jumbo loans',
        ],
        tags: ['mortgage-core', 'mortgage-refi', 'mortgage-rates'],
        personas: ['First-Time Buyer', 'Refinancing Homeowner', 'Real Estate Investor'],
        themes: ['Mortgage rates', 'Closing speed', 'Lender trust', 'Mortgage fees'],
        audiences: ['low down payments', 'self-employed borrowers', 'veterans', 'high-cost areas', 'condos'],
      },
      {
        name: 'Budgeting Apps',
        noun: 'budgeting apps',
        shopping: false,
        topics: [
          'Zero-based budgeting apps',
          'Couples budgeting',
          'Expense tracking',
          'Budget app security',
          'Free budgeting tools',
        ],
        tags: ['budget-core', 'budget-security', 'budget-free'],
        personas: ['Young Professional', 'Debt Payoff Planner', 'Freelancer Øyvind'],
        themes: ['Budget app ease', 'Budget app price', 'Bank syncing', 'Budget app privacy'],
        audiences: ['couples', 'paying off debt', 'irregular income', 'college students', 'saving for a house'],
      },
    ],
  },
  {
    name: 'Initech Software',
    brand: 'Initech Flow',
    domains: ['initechsoftware.com', 'initechflow.io'],
    categories: [
      {
        name: 'CRM Platforms',
        noun: 'CRM platforms',
        shopping: false,
        topics: [
          'CRM for startups',
          'CRM integrations',
          'Sales pipeline tracking',
          'CRM pricing tiers',
          'CRM data migration',
        ],
        tags: ['crm-core', 'crm-enterprise', 'crm-smb', 'crm-integrations'],
        personas: ['Sales Operations Lead', 'Startup Founder', 'IT Administrator'],
        themes: ['CRM usability', 'CRM pricing', 'CRM support', 'CRM reporting'],
        audiences: ['small teams', 'enterprises', 'B2B sales', 'real estate agents', 'nonprofits'],
      },
      {
        name: 'Project Management Tools',
        noun: 'project management tools',
        shopping: true,
        topics: [
          'Agile boards アジャイル',
          'ガントチャート (Gantt charts)',
          'Remote team collaboration',
          'Project tool pricing',
          'Resource planning',
        ],
        tags: ['pm-core', 'pm-agile', 'pm-télétravail'],
        personas: ['Engineering Manager', 'Agency Producer', 'Operations Director'],
        themes: [
          'Project tool speed',
          'Project tool price',
          'Project tool integrations',
          'Project tool learning curve',
        ],
        audiences: ['software teams', 'marketing agencies', 'construction firms', 'remote teams', 'freelancers'],
      },
    ],
  },
];

/** Syllables for brand, channel and product names; every generated name is unique across organizations. */
export const syllablesA = [
  'Al',
  'Bel',
  'Cor',
  'Dar',
  'El',
  'Fen',
  'Gal',
  'Hal',
  'Ñix',
  'Jor',
  'Kel',
  'Lum',
  'Mar',
  'Nor',
  'Ørn',
  'Pel',
  'Quin',
  'Ros',
  'Sol',
  'Tal',
  'Über',
  'Vor',
  'Wen',
  'Xan',
  'Yor',
  'Zel',
];
export const syllablesB = [
  'vex',
  'tra',
  'dyn',
  'ora',
  'ix',
  'ion',
  'ara',
  'eon',
  'ify',
  'ly',
  'ium',
  'ova',
  'ent',
  'era',
  'ano',
];

export const models = [
  { name: 'ChatGPT', shopping: true, searchRate: 0.7 },
  { name: 'Perplexity', shopping: false, searchRate: 1.0 },
  { name: 'Gemini', shopping: false, searchRate: 0.6 },
  { name: 'AI Overviews', shopping: false, searchRate: 0.9 },
  { name: 'AI Mode', shopping: false, searchRate: 0.95 },
  { name: 'Microsoft Copilot', shopping: false, searchRate: 0.8 },
  { name: 'Claude', shopping: false, searchRate: 0.4 },
  { name: 'Grok', shopping: false, searchRate: 0.5 },
];

export const regions = [
  { name: 'United States', code: 'US' },
  { name: 'United Kingdom', code: 'GB' },
  { name: 'Canada', code: 'CA' },
  { name: 'Germany', code: 'DE' },
  { name: 'India', code: 'IN' },
  { name: 'Australia', code: 'AU' },
];

export const socialDomains = ['youtube.com', 'reddit.com', 'linkedin.com', 'x.com', 'quora.com', 'facebook.com'];
export const mediaDomains = [
  'nytimes.com',
  'wired.com',
  'forbes.com',
  'theverge.com',
  'cnet.com',
  'bbc.co.uk',
  'techradar.com',
  'consumerreports.org',
  'wsj.com',
  'businessinsider.com',
];
export const institutionDomains = [
  'nih.gov',
  'cdc.gov',
  'harvard.edu',
  'stanford.edu',
  'consumerfinance.gov',
  'ftc.gov',
];
export const prWireDomains = ['prnewswire.com', 'businesswire.com', 'globenewswire.com'];
export const otherDomains = ['wikipedia.org', 'medium.com', 'substack.com', 'github.com', 'stackexchange.com'];

export const videoCategories = [
  'Education',
  'Science & Technology',
  'Howto & Style',
  'People & Blogs',
  'Travel & Events',
  'Sports',
  'News & Politics',
];

export const merchants = ['Amazon', 'Walmart', 'Target', 'Best Buy', 'REI', 'Müller', 'eBay'];

export const promptTemplates = [
  'What are the best {noun} for {audience}, thinking about {topic}?',
  'Which {noun} do experts recommend for {audience}, focusing on {topic}?',
  'Compare the top {noun} for {audience}: {topic}',
  'How do I choose {noun} for {audience}? I care most about {topic}.',
  'Are premium {noun} worth it for {audience}, given {topic}?',
  'What should I look for in {noun} for {audience} regarding {topic}?',
  'Top rated {noun} for {audience} this year, by {topic}',
  'Which brand makes the most reliable {noun} for {audience}, especially for {topic}?',
];

export const fanoutModifiers = ['best', 'reviews', 'comparison', 'price', 'reddit', '2026', 'vs', 'top rated'];

export const bots: readonly { name: string; provider: string; type: string; weight: number }[] = [
  { name: 'GPTBot', provider: 'openai', type: 'ai_training', weight: 14 },
  { name: 'ChatGPT-User', provider: 'openai', type: 'ai_assistant', weight: 16 },
  { name: 'OAI-SearchBot', provider: 'openai', type: 'index', weight: 8 },
  { name: 'OAI-Operator', provider: 'openai', type: 'ai_agent', weight: 1 },
  { name: 'ClaudeBot', provider: 'anthropic', type: 'ai_training', weight: 6 },
  { name: 'Claude-User', provider: 'anthropic', type: 'ai_assistant', weight: 4 },
  { name: 'Claude-SearchBot', provider: 'anthropic', type: 'index', weight: 2 },
  { name: 'PerplexityBot', provider: 'perplexity', type: 'index', weight: 7 },
  { name: 'Perplexity-User', provider: 'perplexity', type: 'ai_assistant', weight: 5 },
  { name: 'Googlebot', provider: 'google', type: 'index', weight: 12 },
  { name: 'Google-Extended', provider: 'google', type: 'ai_training', weight: 3 },
  { name: 'Gemini-Deep-Research', provider: 'gemini', type: 'ai_agent', weight: 1 },
  { name: 'bingbot', provider: 'microsoft', type: 'index', weight: 8 },
  { name: 'Applebot-Extended', provider: 'apple', type: 'ai_training', weight: 2 },
  { name: 'Bytespider', provider: 'bytedance', type: 'ai_training', weight: 3 },
  { name: 'Amazonbot', provider: 'amazon', type: 'index', weight: 2 },
  { name: 'meta-externalagent', provider: 'meta', type: 'ai_training', weight: 2 },
  { name: 'DuckAssistBot', provider: 'duckduckgo', type: 'ai_assistant', weight: 1 },
  { name: 'CCBot', provider: 'commoncrawl', type: 'ai_training', weight: 2 },
  { name: 'MistralAI-User', provider: 'mistral', type: 'ai_assistant', weight: 1 },
];

export const referralSources: readonly { source: string; weight: number }[] = [
  { source: 'openai', weight: 30 },
  { source: 'perplexity', weight: 12 },
  { source: 'gemini', weight: 8 },
  { source: 'microsoft', weight: 6 },
  { source: 'anthropic', weight: 4 },
  { source: 'deepseek', weight: 2 },
  { source: 'grok', weight: 2 },
  { source: 'you', weight: 1 },
  { source: 'internal', weight: 15 },
  { source: 'none', weight: 14 },
  { source: 'other', weight: 6 },
];

export const sitePaths = [
  '/',
  '/blog',
  '/pricing',
  '/products',
  '/docs/getting-started',
  '/docs/api',
  '/about',
  '/blog/buyers-guide',
  '/blog/comparison',
  '/support',
  '/careers',
  '/products/new',
];
