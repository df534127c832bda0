/**
 * Open-redirect payloads of docs/security.md (G1–G8, G12, G13), plus values that a URL parser
 * would "repair" into a trusted URL while the raw text (control characters) would reach a header.
 */
export const EVIL_CALLBACKS: readonly string[] = [
  // G1
  "https://evil.com",
  "http://evil.com",
  "HTTPS://EVIL.COM/x",
  // G2
  "//evil.com",
  "///evil.com",
  "////evil.com",
  // G3
  "/\\evil.com",
  "\\/evil.com",
  "/\\\\evil.com",
  "\\\\evil.com",
  "\\/\\/evil.com",
  // G4
  "/%2f%2fevil.com",
  "/%2F%2Fevil.com",
  "%2F%2Fevil.com",
  "/%5cevil.com",
  "/%5Cevil.com",
  "/%252F%252Fevil.com",
  // G5
  "http:evil.com",
  "https:evil.com",
  "http:/evil.com",
  "https:/\\evil.com",
  "https:\\\\evil.com",
  // G6
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "java%0ascript:alert(1)",
  " javascript:alert(1)",
  "\tjavascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  // G7
  "http://localhost:3000.evil.com",
  "http://localhost:3000@evil.com",
  "https://evil.com@localhost:3000",
  "http://evil.com@localhost:3000/",
  "https://evil.com#localhost:3000",
  "https://evil.com?localhost:3000",
  "http://localhost:3000%2F@evil.com",
  "http://localhost:3000%40evil.com",
  "http://localhost:80@evil.com",
  "https://localhost:3000",
  "http://localhost:3001",
  // G8
  "/\t/evil.com",
  "/%09/evil.com",
  "/ /evil.com",
  "/\n/evil.com",
  "/%0d%0a/evil.com",
  "/%00/evil.com",
  "http://local\thost:3000.evil.com",
  "http://localhost:3000\n.evil.com",
  // Trusted once a parser drops the control characters, but the raw value would reach a Location header.
  "http://local\nhost:3000/",
  "http://localhost:3000/\r\nSet-Cookie: x=1",
  "/dash\tboard",
  // G12, G13
  "https://evil.com／x",
  "http://localhost:3000。evil.com",
  "https://ｅｖｉｌ.com",
  "http://[::1",
  "%",
  "http://a b",
  "",
];

export const GOOD_CALLBACKS: readonly string[] = [
  "/",
  "/dashboard",
  "/dashboard?tab=1#x",
  "/a/b-c_d.e~f?x=1&y=%2F",
  "http://localhost:3000",
  "http://localhost:3000/cb?x=1",
  "https://app.example.com/cb",
];
