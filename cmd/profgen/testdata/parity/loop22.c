int f(int n){int s=0;for(int i=0;i<n;i++){if(i%3)s+=i;else s-=1;}return s;}
int main(int c,char**v){int t=0;for(int k=0;k<50;k++)t+=f(k+c);return t&1;}
