/* Twelve functions of more than ten hashed statements: MD5 front-end hashes, whose top 4 bits clang 22 clears (make.sh: fehash19/22.profraw). */
#include <stdio.h>
#include <stdlib.h>
#define F(n) int f##n(int x){ int s=0; for(int i=0;i<x;i++){ if(i%3==0) s+=i; else if(i%5==1) s-=i; else if (i%7==2) s^=i; else s+=n; while(s>1000) s/=2; switch(i&3){case 0: s++; break; case 1: s--; break; default: s+=2;} do { s+=1; } while(s<0); } return s ? s : (x>2 ? 1 : 0); }
F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12)
int small(int x){ return x+1; }
int main(int argc,char**argv){ int n=argc>1?atoi(argv[1]):100; long t=0; t+=f1(n)+f2(n)+f3(n)+f4(n)+f5(n)+f6(n)+f7(n)+f8(n)+f9(n)+f10(n)+f11(n)+f12(n)+small(n); printf("%ld\n",t); return 0; }
