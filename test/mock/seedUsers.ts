/** Tokens for the seeded users of the bundled seed, for tests that ask as one of them (`withMock(fn, USERS)`). */
export const PRIYA = 'token-of-priya-1001'; // student in BIO-101 section A
export const LENA = 'token-of-lena-1003'; // student in BIO-101 section B
export const TOMAS = 'token-of-tomas-1004'; // student in CHEM-110, and in the unpublished HIST-210
export const DANIEL = 'token-of-daniel-2001'; // observer of Priya in BIO-101
export const MIRA = 'token-of-mira-9'; // administrator of account 1
export const SAMUEL = 'token-of-samuel-8'; // teacher of HIST-210 only
// The seed's own token (any, without `token`) is Elena Vasquez's (7), who teaches BIO-101 and CHEM-110.
export const USERS = {
  userTokens: [
    { userId: 1001, token: PRIYA },
    { userId: 1003, token: LENA },
    { userId: 1004, token: TOMAS },
    { userId: 2001, token: DANIEL },
    { userId: 9, token: MIRA },
    { userId: 8, token: SAMUEL },
  ],
};
