/* SPDX-License-Identifier: MIT */
/*
 * Unsafe libc calls, banned at compile time (after git's banned.h).  Every
 * lib/ file includes this through internal.h.
 */
#ifndef PRISM_BANNED_H
#define PRISM_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef gets
#define gets(x) BANNED(gets)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef asctime
#define asctime(t) BANNED(asctime)
#undef ctime
#define ctime(t) BANNED(ctime)

#endif /* PRISM_BANNED_H */
