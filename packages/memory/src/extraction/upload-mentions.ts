/**
 * DeerFlow never records file uploads in memory (uploads are per thread and
 * their paths mean nothing in the next conversation): upload blocks are cut
 * from the conversation, and sentences mentioning uploads from what is stored.
 */

const UPLOAD_BLOCKS = /<(uploaded_files|current_uploads)>[\s\S]*?<\/\1>\s*/g;
const UPLOAD_MENTION = /\bupload(?:s|ed|ing)?\b|\/mnt\/user-data\/uploads/i;

/** @returns the text without `<uploaded_files>` / `<current_uploads>` blocks */
export function stripUploadBlocks(text: string): string {
  return text.replace(UPLOAD_BLOCKS, "");
}

/** @returns whether the text mentions an upload */
export function mentionsUpload(text: string): boolean {
  return UPLOAD_MENTION.test(text);
}

/** @returns the text without its sentences that mention uploads */
export function stripUploadSentences(text: string): string {
  return text
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => !mentionsUpload(sentence))
    .join(" ")
    .trim();
}
