Content-Type: application/vscode-jsonrpc; charset=utf-8
Content-Length: 75

{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}Content-Length: 47
X-Whatever: 1

{"jsonrpc":"2.0","id":1,"method":"tessel/ping"}Content-Length: 5
Content-Length: 47

{"jsonrpc":"2.0","id":2,"method":"tessel/ping"}Content-Length: abc

{"jsonrpc":"2.0","id":3,"method":"tessel/ping"}
Content-Length: 47

{"jsonrpc":"2.0","id":4,"method":"tessel/ping"}Content-Length: 209

{"jsonrpc":"2.0","id":5,"method":"tessel/ping","params":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}Content-Length: 47

{"jsonrpc":"2.0","id":6,"method":"tessel/ping"}Content-Length: 24

{"jsonrpc":"2.0","id":7,Content-Length: 47

{"jsonrpc":"2.0","id":8,"method":"tessel/ping"}Content-Length: 99999999999999999999999

{}
Content-Length: 47

{"jsonrpc":"2.0","id":9,"method":"tessel/ping"}Content-Type: text/plain

{}
Content-Length: 48

{"jsonrpc":"2.0","id":10,"method":"tessel/ping"}Content-Length: 100

{"jsonrpc":"2.0"