package main

// linked keeps a large part of the standard library in the binary, so that
// its text passes 8 MiB: the linker keeps every function reachable from
// here, and text/template's reflection keeps every exported method of the
// types it can reach.

import (
	"archive/tar"
	"archive/zip"
	"compress/bzip2"
	"compress/flate"
	"compress/gzip"
	"compress/lzw"
	"compress/zlib"
	"crypto/aes"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hmac"
	"crypto/mlkem"
	"crypto/rsa"
	"crypto/sha3"
	"crypto/sha512"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"debug/buildinfo"
	"debug/dwarf"
	"debug/elf"
	"debug/gosym"
	"debug/macho"
	"debug/pe"
	"debug/plan9obj"
	"encoding/ascii85"
	"encoding/asn1"
	"encoding/base32"
	"encoding/base64"
	"encoding/csv"
	"encoding/gob"
	"encoding/json"
	"encoding/pem"
	"encoding/xml"
	"expvar"
	"go/ast"
	"go/build"
	"go/constant"
	"go/doc"
	"go/doc/comment"
	"go/format"
	"go/importer"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"html/template"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"index/suffixarray"
	"log/slog"
	"log/syslog"
	"math/big"
	"mime/multipart"
	"net/http"
	"net/http/cgi"
	"net/http/cookiejar"
	"net/http/fcgi"
	"net/http/httptest"
	"net/http/httputil"
	_ "net/http/pprof"
	"net/mail"
	"net/rpc"
	"net/smtp"
	"os/exec"
	"os/user"
	"regexp"
	"runtime/pprof"
	"runtime/trace"
	"testing"
	"testing/fstest"
	"text/tabwriter"
	ttemplate "text/template"
)

var linked = []any{
	tar.NewReader, zip.NewReader, bzip2.NewReader, flate.NewWriter, gzip.NewReader, lzw.NewReader, zlib.NewReader,
	aes.NewCipher, ecdh.P256, ecdsa.GenerateKey, ed25519.Sign, hmac.New, mlkem.GenerateKey768, rsa.GenerateKey,
	sha3.New256, sha512.New, tls.Dial, tls.Listen, x509.ParseCertificate, sql.Open,
	dwarf.New, elf.Open, gosym.NewTable, macho.Open, pe.Open, plan9obj.Open,
	asn1.Marshal, base32.NewEncoding, base64.NewEncoding, csv.NewReader, gob.NewEncoder, json.Marshal, pem.Decode, xml.Marshal,
	ast.Print, doc.New, format.Source, importer.Default, parser.ParseFile, printer.Fprint, token.NewFileSet,
	types.NewChecker, types.Eval,
	template.New, gif.Decode, jpeg.Decode, png.Encode, slog.New, big.NewInt,
	http.ListenAndServe, http.Get, httputil.DumpRequest, mail.ReadMessage, rpc.Dial, smtp.Dial, regexp.MustCompile,
	pprof.StartCPUProfile, trace.Start, testing.Main, fstest.TestFS, httptest.NewServer, cgi.Serve, fcgi.Serve,
	cookiejar.New, expvar.Publish, build.Import, comment.DefaultLookupPackage, suffixarray.New, multipart.NewReader,
	exec.Command, user.Current, draw.Draw, buildinfo.ReadFile, syslog.New, tabwriter.NewWriter, ascii85.Encode,
	constant.MakeFromLiteral, ttemplate.Must, (*ttemplate.Template).Execute, (*template.Template).Execute,
}
