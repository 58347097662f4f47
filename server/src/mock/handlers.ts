/**
 * The mock's handlers by endpoint id, one file of `resources/` for each resource area of the
 * catalog. The server looks an endpoint up here after routing and checking the request.
 */
import type { Handler } from './context';
import type { EndpointId } from './endpointIds';
import { appointmentGroupHandlers } from './resources/appointmentGroups';
import { courseAuditLogHandlers } from './resources/courseAuditLog';
import { courseHandlers } from './resources/courses';
import { errorReportHandlers } from './resources/errorReports';
import { externalToolHandlers } from './resources/externalTools';
import { fileHandlers } from './resources/files';
import { folderHandlers } from './resources/folders';
import { gradebookColumnHandlers } from './resources/gradebookColumns';
import { gradebookHistoryHandlers } from './resources/gradebookHistory';
import { gradingPeriodHandlers } from './resources/gradingPeriods';
import { moduleItemHandlers } from './resources/moduleItems';
import { moduleHandlers } from './resources/modules';
import { notificationPreferenceHandlers } from './resources/notificationPreferences';
import { outcomeHandlers } from './resources/outcomes';
import { peerReviewHandlers } from './resources/peerReviews';
import { plannerHandlers } from './resources/planner';
import { quizQuestionHandlers } from './resources/quizQuestions';
import { quizSubmissionHandlers } from './resources/quizSubmissions';
import { roleHandlers } from './resources/roles';
import { searchHandlers } from './resources/search';
import { submissionHandlers } from './resources/submissions';
import { webhookHandlers } from './resources/webhooks';

/** Every endpoint of the catalog has its handler: a table without one does not compile. */
const table = {
  ...externalToolHandlers,
  ...moduleHandlers,
  ...moduleItemHandlers,
  ...appointmentGroupHandlers,
  ...fileHandlers,
  ...folderHandlers,
  ...roleHandlers,
  ...courseHandlers,
  ...submissionHandlers,
  ...quizSubmissionHandlers,
  ...quizQuestionHandlers,
  ...gradebookHistoryHandlers,
  ...gradebookColumnHandlers,
  ...gradingPeriodHandlers,
  ...peerReviewHandlers,
  ...plannerHandlers,
  ...outcomeHandlers,
  ...webhookHandlers,
  ...notificationPreferenceHandlers,
  ...courseAuditLogHandlers,
  ...errorReportHandlers,
  ...searchHandlers,
} satisfies Record<EndpointId, Handler>;

/** The table as the server reads it, by the id of an endpoint the matcher found (a string). */
export const HANDLERS: Readonly<Record<string, Handler>> = table;
