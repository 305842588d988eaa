// The snippets themselves are generated into Generated/ by ../../generate.py; this file keeps the
// target non-empty before the first generation.
enum DocSnippets {}
