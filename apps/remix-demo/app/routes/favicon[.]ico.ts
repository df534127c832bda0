import { redirect } from "@remix-run/node";

// Browsers ask for /favicon.ico whatever the page links; the icon is an SVG.
export const loader = () => redirect("/favicon.svg", 301);
