/** What the model is told about each web tool (DeerFlow's guidance on URLs kept). */

export const SEARCH_TOOL_DESCRIPTION =
  "Search the web. Returns JSON {query, total_results, results: [{title, url, content}]}. " +
  "Cite the url of each result you use; fetch a result with web_fetch to read the whole page.";

export const FETCH_TOOL_DESCRIPTION =
  "Fetch a web page and return its main content as Markdown (title first, truncated). " +
  "Only fetch exact URLs given by the user or returned by web_search / web_fetch; the URL must include " +
  "http:// or https://, do not add www. Pages behind a login cannot be read.";

export const IMAGE_TOOL_DESCRIPTION =
  "Search for images. Returns JSON {query, total_results, results: [{title, image_url, thumbnail_url}]}; " +
  "use the image_url values as reference images.";
