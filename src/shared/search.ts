/**
 * The search's answer header naming the text it searched when it read the query in the other
 * keyboard layout («vbirf» → «мишка»), percent-encoded (a header carries Latin-1 only); absent
 * when the query was searched as typed. The body stays SPEC's array of products.
 */
export const SEARCH_READ_AS_HEADER = 'search-read-as';
