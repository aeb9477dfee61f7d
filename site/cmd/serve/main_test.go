package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestServerLimitsSet(t *testing.T) {
	srv := newServer(http.NotFoundHandler(), defaultLimits)
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Fatalf("server leaves a limit unset: ReadHeaderTimeout %v, ReadTimeout %v, IdleTimeout %v, MaxHeaderBytes %d",
			srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout, srv.MaxHeaderBytes)
	}
	if srv.MaxHeaderBytes >= http.DefaultMaxHeaderBytes {
		t.Errorf("MaxHeaderBytes %d is not below net/http's default %d", srv.MaxHeaderBytes, http.DefaultMaxHeaderBytes)
	}
}

// serve starts newServer with l on a free port and returns its address.
func serve(t *testing.T, l limits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		fmt.Fprint(w, "ok")
	}), l)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// A client that trickles its request header, a line at a time, is cut off
// once the header deadline passes, long before it would have finished.
func TestServerClosesTricklingHeader(t *testing.T) {
	l := defaultLimits
	l.readHeader = 300 * time.Millisecond
	addr := serve(t, l)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	closed := make(chan error, 1)
	go func() {
		// The server answers nothing to a header it gave up on: the read ends
		// (EOF or a reset) when it closes the connection.
		_, err := c.Read(make([]byte, 1))
		closed <- err
	}()
	if _, err := io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for i := 0; i < 100; i++ { // 5 s of trickling
		select {
		case err := <-closed:
			if took := time.Since(start); took > 2*time.Second {
				t.Fatalf("connection closed only after %v (%v)", took, err)
			}
			return
		case <-tick.C:
			io.WriteString(c, fmt.Sprintf("X-Slow-%d: a\r\n", i)) // errors once closed: the read reports it
		}
	}
	t.Fatalf("server still reading a trickled header after %v", time.Since(start))
}

// A body that never comes is cut off by ReadTimeout.
func TestServerClosesStalledBody(t *testing.T) {
	l := defaultLimits
	l.read = 300 * time.Millisecond
	addr := serve(t, l)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /api/validate HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
	c.SetReadDeadline(time.Now().Add(3 * time.Second))
	_, err = io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("server still waiting for the body after 3 s")
	}
}

// A header over MaxHeaderBytes is refused with 431.
func TestServerRefusesHugeHeader(t *testing.T) {
	addr := serve(t, defaultLimits)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: %s\r\n\r\n", strings.Repeat("a", defaultLimits.maxHeader+8192))
	c.SetReadDeadline(time.Now().Add(3 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status %d, want 431", resp.StatusCode)
	}
}

// An idle keep-alive connection is closed after IdleTimeout.
func TestServerClosesIdleConnection(t *testing.T) {
	l := defaultLimits
	l.idle = 300 * time.Millisecond
	addr := serve(t, l)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := br.ReadByte(); err == nil {
		t.Fatal("unexpected byte on an idle connection")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("idle connection still open after 3 s")
	}
}
