import type { ReportCase } from '../lib/case.ts';
import { visibilityCase } from './visibility.ts';

/** Every report the bench knows: one case module each. */
export const reportCases: readonly ReportCase[] = [visibilityCase];
