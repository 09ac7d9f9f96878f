/**
 * Passwords refused whatever their length: well-known leaked passwords of 8
 * characters or more (shorter ones already fail the length rule), compared in
 * lower case. A floor, not a breach database: it stops the guesses an attacker
 * tries first.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  "password", "password1", "password12", "password123", "password1234", "password!", "passw0rd", "p@ssw0rd",
  "p@ssword", "pa$$word", "12345678", "123456789", "1234567890", "0123456789", "11111111", "00000000",
  "12341234", "87654321", "88888888", "123123123", "qwerty12", "qwertyui", "qwerty123", "qwertyuiop",
  "1q2w3e4r", "1qaz2wsx", "zaq12wsx", "q1w2e3r4", "asdfghjk", "asdf1234", "zxcvbnm1", "abc12345",
  "abcd1234", "abcdefgh", "iloveyou", "iloveyou1", "letmein1", "letmein123", "welcome1", "welcome123",
  "admin123", "admin1234", "administrator", "changeme", "changeme1", "default1", "monkey12", "trustno1",
  "sunshine", "princess", "football", "baseball", "basketball", "superman", "batman123", "starwars",
  "dragon123", "master123", "shadow12", "michael1", "jennifer", "computer", "whatever", "corvette",
  "mercedes", "internet", "secret123", "freedom1", "hello123", "charlie1", "jordan23", "liverpool",
  "chelsea1", "samsung1", "maverick", "mustang1", "access14", "test1234", "testtest", "guest123",
  "deerflow", "deerflow1", "deerflow123",
]);
