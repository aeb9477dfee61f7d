module github.com/dsplayground/dsplay

go 1.26.8

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	golang.org/x/tools v0.52.0
	gopkg.in/yaml.v3 v3.0.1
	honnef.co/go/js/dom/v2 v2.0.0-20231112215516-51f43a291193
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
