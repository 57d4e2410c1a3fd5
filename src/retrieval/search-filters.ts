/** What narrows a search to some of a datastore's chunks (the query's `filters`). */
export type SearchFilters = {
  /** Only chunks of these datasources (a web_site id stands for all its pages). */
  datasourceIds?: string[];
  customIds?: string[];
};
