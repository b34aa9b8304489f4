/** TRIAL (issue 15): Vite's `?url` imports. */
declare module '*?url' {
  const url: string;
  export default url;
}
