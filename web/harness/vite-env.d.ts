/**
 * Vite's client types for the harness: `?raw` imports (the sample CSV) and CSS imports.
 */
/// <reference types="vite/client" />
