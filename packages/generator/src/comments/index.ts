/** The comment rules: limits, clean text, the document parser, the error catalog and their documentation. */
export { COMMENT_RULES, COMMENT_WORK_LIMITS, COMMENT_WORK_BUDGET, workUsed, COMMENT_KEYS, COMMENT_ERRORS, CommentRuleError, commentError, commentErrorMessage, addDays, type CommentRuleId, type CommentWorkLimit, type CommentWorkExcess, type CommentField, type CommentErrorSpec } from './rules.ts';
export { parseCommentDocument, validateCommentFields, decodeCommentBytes, checkCommentText, assertRenderableShape, isLightBody, type CommentInput } from './parse-document.ts';
export { firstInvalidUtf8 } from '../load/utf8.ts';
export { findInvisibleOnlyName, findUnsafeInName, findUnsafeInBody, printable, type UnsafeChar } from './clean-text.ts';
export { measureBody, type BodyShape } from './body-shape.ts';
export { signedAgentsSummary, signingExample, SIGNATURE_MAX_LIFETIME_S } from './signed-agents.ts';
export { commentFieldDocs, commentRulesMarkdown, commentErrorsMarkdown, exampleCommentError, type CommentFieldDoc } from './describe.ts';
