package api

import "encoding/json"

// MarshalJSON renders a quantity as the API server does: a JSON string
// ("100m", "64Mi").
func (q Quantity) MarshalJSON() ([]byte, error) { return json.Marshal(q.String()) }

// UnmarshalJSON parses a JSON string or number as a quantity.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n json.Number
		if err2 := json.Unmarshal(b, &n); err2 != nil {
			return err
		}
		s = n.String()
	}
	v, err := ParseQuantity(s)
	if err != nil {
		return err
	}
	*q = v
	return nil
}
